import { createHash } from "node:crypto";
import { open, readFile, rename, rm } from "node:fs/promises";
import { z } from "zod";
import { buildFullTextIndex, withStatistics, type FullTextIndex } from "./fulltext-index.ts";

// One full-text search segment's file (search-database.ts): `<n>.fts`, written whole to a
// temporary name, flushed and renamed, so a segment on disk is always complete; a build a crash
// interrupted leaves only a `.tmp` file, removed at the next start.
//
// Layout (little-endian): the magic line, the header's byte length (u32) and the header (JSON:
// the record, the rows' section ids, the counts), padding to 4 bytes, then the arrays — lengths,
// document of each row, term starts, posting rows, posting counts (u32 each) — and last the
// terms, UTF-8, one per line.

/** One section's searchable text, as the library stores it (numberTerms: fts-query.ts). */
export interface SearchRow {
  id: string;
  documentId: string;
  label: string;
  heading: string;
  text: string;
  numberTerms: string;
}

/** A document an index holds: the library's documents are immutable, so id and sha256 say what it indexed. */
export interface IndexedDocument {
  id: string;
  sha256: string;
}

const MAGIC = Buffer.from("CLAUSEGRAPH-FTS 1\n", "ascii");
export const PARTIAL_EXTENSION = ".tmp";

/** How a segment is built; part of its record, so a segment built another way is rebuilt. */
const INDEX_RECIPE = "fts 1: label heading text numberTerms; letters only; SMART stop words; porter; bm25 1.2 0.75";

/** What the documents of an index add up to (with how it is built): equal fingerprints, equal contents. */
export function fingerprintOf(documents: readonly IndexedDocument[]): string {
  const hash = createHash("sha256");
  hash.update(`${INDEX_RECIPE}\n`);
  for (const d of [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) hash.update(`${d.id}:${d.sha256}\n`);
  return hash.digest("hex");
}

/** What a complete segment records about itself. */
export interface BuiltRecord {
  fingerprint: string;
  documents: IndexedDocument[];
  sectionsOf: Map<string, number>;
  sections: number;
}

/** A built segment, open for queries. */
export interface Segment extends BuiltRecord {
  n: number;
  file: string;
  index: FullTextIndex;
  /** Each document's sha256, to tell its rows from those of a deleted document. */
  shaOf: Map<string, string>;
  /** What its arrays and terms take in memory. */
  bytes: number;
}

const headerSchema = z.object({
  fingerprint: z.string(),
  documents: z.array(z.tuple([z.string(), z.string(), z.number().int().nonnegative()])),
  builtAt: z.string(),
  ids: z.array(z.string()),
  documentIds: z.array(z.string()),
  terms: z.number().int().nonnegative(),
  postings: z.number().int().nonnegative(),
  termsBytes: z.number().int().nonnegative(),
});

const pad4 = (n: number): number => (n + 3) & ~3;

/** Builds the index of `rows` and writes it as segment `file`; throws once `closing` says the library closes. */
export async function writeSegment(
  file: string,
  rows: readonly SearchRow[],
  documents: readonly IndexedDocument[],
  sectionsOf: Map<string, number>,
  closing: () => boolean,
): Promise<{ record: BuiltRecord; index: FullTextIndex; bytes: number }> {
  const index = await buildFullTextIndex(
    rows.map((r) => ({ id: r.id, documentId: r.documentId, fields: [r.label, r.heading, r.text, r.numberTerms] })),
    closing,
  );
  const terms = Buffer.from(index.terms.join("\n"), "utf8");
  const header = Buffer.from(
    JSON.stringify({
      fingerprint: fingerprintOf(documents),
      documents: documents.map((d) => [d.id, d.sha256, sectionsOf.get(d.id) ?? 0]),
      builtAt: new Date().toISOString(),
      ids: index.ids,
      documentIds: index.documentIds,
      terms: index.terms.length,
      postings: index.postingRows.length,
      termsBytes: terms.length,
    }),
    "utf8",
  );
  const prefix = Buffer.alloc(pad4(MAGIC.length + 4 + header.length));
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(header.length, MAGIC.length);
  header.copy(prefix, MAGIC.length + 4);
  const arrays = [index.lengths, index.documentOf, index.starts, index.postingRows, index.postingCounts].map((a) =>
    Buffer.from(a.buffer, a.byteOffset, a.byteLength),
  );
  const partial = `${file}${PARTIAL_EXTENSION}`;
  const handle = await open(partial, "w", 0o600);
  try {
    // writeFile loops until every byte is written; write() may write fewer than asked.
    await handle.writeFile(Buffer.concat([prefix, ...arrays, terms]));
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
  await handle.close();
  if (closing()) {
    await rm(partial, { force: true });
    throw new Error("the library is closing");
  }
  await rename(partial, file);
  const record: BuiltRecord = { fingerprint: fingerprintOf(documents), documents: [...documents], sectionsOf, sections: rows.length };
  return { record, index, bytes: prefix.length + arrays.reduce((sum, a) => sum + a.length, 0) + terms.length };
}

/** Reads a segment file back; null when it is not a complete segment of this format. */
export async function readSegment(file: string): Promise<{ record: BuiltRecord; index: FullTextIndex; bytes: number } | null> {
  let buffer = await readFile(file);
  if (buffer.length < MAGIC.length + 4 || !buffer.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  // Typed arrays need 4-byte alignment; a small file may sit anywhere in Node's pool.
  if (buffer.byteOffset % 4 !== 0) buffer = Buffer.from(buffer);
  const headerLength = buffer.readUInt32LE(MAGIC.length);
  let parsed: z.infer<typeof headerSchema>;
  try {
    parsed = headerSchema.parse(JSON.parse(buffer.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength)));
  } catch {
    return null;
  }
  const rows = parsed.ids.length;
  let at = pad4(MAGIC.length + 4 + headerLength);
  const take = (count: number): Uint32Array | null => {
    if (at + count * 4 > buffer.length) return null;
    const array = new Uint32Array(buffer.buffer, buffer.byteOffset + at, count);
    at += count * 4;
    return array;
  };
  const lengths = take(rows);
  const documentOf = take(rows);
  const starts = take(parsed.terms + 1);
  const postingRows = take(parsed.postings);
  const postingCounts = take(parsed.postings);
  if (lengths === null || documentOf === null || starts === null || postingRows === null || postingCounts === null) return null;
  if (buffer.length - at !== parsed.termsBytes) return null;
  const terms = parsed.terms === 0 ? [] : buffer.toString("utf8", at).split("\n");
  if (terms.length !== parsed.terms || starts[parsed.terms] !== parsed.postings) return null;
  const documents = parsed.documents.map(([id, sha256]) => ({ id, sha256 }));
  const sectionsOf = new Map(parsed.documents.map(([id, , count]) => [id, count]));
  const index = withStatistics({ ids: parsed.ids, documentOf, documentIds: parsed.documentIds, lengths, terms, starts, postingRows, postingCounts });
  return { record: { fingerprint: parsed.fingerprint, documents, sectionsOf, sections: rows }, index, bytes: buffer.length };
}

/** A segment read or built, ready for queries. */
export function openSegment(n: number, file: string, built: { record: BuiltRecord; index: FullTextIndex; bytes: number }): Segment {
  const { record, index, bytes } = built;
  return { n, file, ...record, index, bytes, shaOf: new Map(record.documents.map((d) => [d.id, d.sha256])) };
}
