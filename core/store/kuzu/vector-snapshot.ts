import { createHash } from "node:crypto";
import { open, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ensurePrivateDir } from "../../files/private-files.ts";
import { VectorMirror } from "./vector-mirror.ts";

// The vector mirror of a table, kept on disk beside the library (`<library>.vectors/<table>.bin`)
// so that an engine opening a large library does not read every vector back through Kuzu before
// its first search (each row converted to a JS array by the binding: the largest part of a cold
// first answer, growing with the library).
//
// Rule "a snapshot exists only while it matches its table": every write to the library removes
// the snapshots first (before Kuzu starts the write), and a snapshot is written only from a
// mirror that follows the table, in the write lane, so no write can slip in between. A crash
// therefore leaves either a snapshot of the table as it is, or none. On reading, the embedding
// model, the dimensions, each document's row count and a checksum of the values must all agree,
// or the mirror is read from Kuzu as before.

const MAGIC = Buffer.from("CGVSNAP1", "latin1");
const HEAD = MAGIC.length + 4;

const headerSchema = z.object({
  table: z.string(),
  modelId: z.string(),
  dimensions: z.number().int().positive(),
  /** sha256 of the values, which follow the header (4-byte aligned, little-endian float32). */
  sha256: z.string(),
  documents: z.array(z.object({ id: z.string(), rows: z.number().int().nonnegative() })),
  ids: z.array(z.string()),
  sectionIds: z.array(z.string()),
});

export function snapshotDirectory(dbPath: string): string {
  return `${dbPath}.vectors`;
}

function snapshotFile(dbPath: string, table: string): string {
  return path.join(snapshotDirectory(dbPath), `${table}.bin`);
}

/** Removes every snapshot of a library (before a write; a rebuilt or replaced library). */
export async function removeVectorSnapshots(dbPath: string): Promise<void> {
  await rm(snapshotDirectory(dbPath), { recursive: true, force: true });
}

/** Writes the mirror of `table` whole, then renames it into place. */
export async function writeVectorSnapshot(dbPath: string, table: string, modelId: string, mirror: VectorMirror): Promise<void> {
  const blocks = [...mirror.blocksOf()];
  const rows = blocks.reduce((sum, b) => sum + b.ids.length, 0);
  const values = new Float32Array(rows * mirror.dimensions);
  let at = 0;
  for (const b of blocks) {
    values.set(b.values, at);
    at += b.values.length;
  }
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const header = Buffer.from(
    JSON.stringify({
      table,
      modelId,
      dimensions: mirror.dimensions,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      documents: blocks.map((b) => ({ id: b.documentId, rows: b.ids.length })),
      ids: blocks.flatMap((b) => b.ids),
      sectionIds: blocks.flatMap((b) => b.sectionIds),
    }),
    "utf8",
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const padding = Buffer.alloc((4 - ((HEAD + header.length) % 4)) % 4);
  await ensurePrivateDir(snapshotDirectory(dbPath));
  const file = snapshotFile(dbPath, table);
  const temporary = `${file}.tmp`;
  try {
    await writeFile(temporary, Buffer.concat([MAGIC, length, header, padding, bytes]), { mode: 0o600, flush: true });
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/**
 * The mirror of `table` from its snapshot, when there is one of this model and dimensions whose
 * documents hold exactly `rowsOf` rows each; otherwise null.
 */
export async function readVectorSnapshot(
  dbPath: string,
  table: string,
  expected: { modelId: string; dimensions: number; rowsOf: ReadonlyMap<string, number> },
): Promise<VectorMirror | null> {
  let handle: FileHandle;
  try {
    handle = await open(snapshotFile(dbPath, table), "r");
  } catch {
    return null;
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(HEAD);
    if ((await handle.read(head, 0, HEAD, 0)).bytesRead < HEAD || !head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const headerLength = head.readUInt32LE(MAGIC.length);
    const start = HEAD + headerLength + ((4 - ((HEAD + headerLength) % 4)) % 4);
    if (start > size) return null;
    const headerBytes = Buffer.alloc(headerLength);
    if ((await handle.read(headerBytes, 0, headerLength, HEAD)).bytesRead < headerLength) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(headerBytes.toString("utf8"));
    } catch {
      return null;
    }
    const header = headerSchema.safeParse(parsed);
    if (!header.success) return null;
    const h = header.data;
    const rows = h.ids.length;
    const agrees =
      h.table === table &&
      h.modelId === expected.modelId &&
      h.dimensions === expected.dimensions &&
      h.sectionIds.length === rows &&
      size - start === rows * h.dimensions * 4 &&
      h.documents.length === expected.rowsOf.size &&
      h.documents.every((d) => expected.rowsOf.get(d.id) === d.rows) &&
      h.documents.reduce((sum, d) => sum + d.rows, 0) === rows;
    if (!agrees) return null;
    // Read straight into the matrix the mirror searches (4-byte aligned, as a Float32Array's own buffer is).
    const values = new Float32Array(rows * h.dimensions);
    const body = new Uint8Array(values.buffer);
    for (let at = 0; at < body.length;) {
      const { bytesRead } = await handle.read(body, at, body.length - at, start + at);
      if (bytesRead === 0) return null;
      at += bytesRead;
    }
    if (createHash("sha256").update(body).digest("hex") !== h.sha256) return null;
    return VectorMirror.fromPacked(h.dimensions, { values, ids: h.ids, sectionIds: h.sectionIds }, h.documents);
  } finally {
    await handle.close();
  }
}
