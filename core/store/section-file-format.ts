import { open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { CrossReferenceRecord, TripletRecord } from "../model/graph-records.ts";
import { sectionSchema, tripletSchema } from "../model/record-schemas.ts";
import type { Section } from "../model/section-types.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { byReferenceOrder, byTripletOrder } from "./record-order.ts";

// The format of a document's section file (section-files.ts): magic, header length, a JSON header
// (the document's stamp, then per row its id, owner and byte range), then the rows as JSON. Rows
// are read by offset, nearby ones in one read, and each is checked with its zod schema.

const MAGIC = Buffer.from("CGSECT03", "latin1");
const HEAD = MAGIC.length + 4;

/** Nearby rows are read in one go when the gap between them is under this many bytes. */
const COALESCE_GAP_BYTES = 64 * 1024;

/** Entries of a header: [id, owner, offset, length]. Checked by a loop: zod's tuples cost more than reading the file. */
function entriesOf<O extends string | null>(ownerMayBeNull: boolean) {
  return z.custom<Array<[string, O, number, number]>>((value) => {
    if (!Array.isArray(value)) return false;
    for (const e of value as unknown[]) {
      if (!Array.isArray(e) || e.length !== 4) return false;
      const [id, owner, offset, length] = e as unknown[];
      if (typeof id !== "string" || !(typeof owner === "string" || (ownerMayBeNull && owner === null))) return false;
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || (offset as number) < 0 || (length as number) < 0) return false;
    }
    return true;
  });
}

const headerSchema = z.object({
  documentId: z.string(),
  sha256: z.string(),
  importedAt: z.string(),
  schemaVersion: z.number().int(),
  /** Per section, in document order: id, parent id, offset and length of its row after the header. */
  rows: entriesOf<string | null>(true),
  /** Per triplet, in the library's order (section, span, id): id, section id, offset, length. */
  triplets: entriesOf<string>(false),
  /** Per citation the document makes, in the library's order (section, span, id): id, citing section, offset, length. */
  references: entriesOf<string>(false),
  /** The import time of each other document a citation was resolved into, when the file was written. */
  targets: z.record(z.string(), z.string()),
});

const referenceSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  fromSectionId: z.string(),
  toSectionId: z.string().nullable(),
  toDocumentId: z.string().nullable(),
  raw: z.string(),
  label: z.string().nullable(),
  pinpoint: z.string().nullable(),
  instrument: z.string().nullable(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  resolved: z.boolean(),
});
export type Header = z.infer<typeof headerSchema>;

export type SectionRow = { section: Section; document: DocumentRecord };

/** Document ids are hex; anything else never names a file. */
const FILE_ID = /^[0-9a-f]{1,64}$/i;

export function fileOf(directory: string, documentId: string): string | null {
  return FILE_ID.test(documentId) ? path.join(directory, `${documentId}.sec`) : null;
}

export function stampMatches(header: Header, doc: DocumentRecord, schemaVersion: number): boolean {
  return (
    header.documentId === doc.id &&
    header.sha256 === doc.sha256 &&
    header.importedAt === doc.importedAt &&
    header.rows.length === doc.sections &&
    header.schemaVersion === schemaVersion
  );
}

/** What a document's file holds beside its sections, as the library reads them back. */
export interface DocumentFacts {
  triplets: readonly TripletRecord[];
  /** Citations the document makes (documentId is its own). */
  references: readonly CrossReferenceRecord[];
  /** Import time of every other document those citations are resolved into. */
  targets: Readonly<Record<string, string>>;
}

/** The file's bytes: magic, header length, header, then the section, triplet and citation rows. */
export function encodeSectionFile(doc: DocumentRecord, sections: readonly Section[], facts: DocumentFacts, schemaVersion: number): Buffer {
  const bodies: Buffer[] = [];
  let at = 0;
  /** Each row's body appended, and its header entry: id, owner, offset, length. */
  const lay = <R, O>(rows: readonly R[], id: (row: R) => string, owner: (row: R) => O): Array<[string, O, number, number]> =>
    rows.map((row) => {
      const body = Buffer.from(JSON.stringify(row), "utf8");
      bodies.push(body);
      const entry: [string, O, number, number] = [id(row), owner(row), at, body.length];
      at += body.length;
      return entry;
    });
  const header: Header = {
    documentId: doc.id,
    sha256: doc.sha256,
    importedAt: doc.importedAt,
    schemaVersion,
    rows: lay(
      [...sections].sort((x, y) => x.ordinal - y.ordinal),
      (s) => s.id,
      (s) => s.parentId,
    ),
    triplets: lay(
      [...facts.triplets].sort(byTripletOrder),
      (t) => t.id,
      (t) => t.sectionId,
    ),
    references: lay(
      [...facts.references].sort(byReferenceOrder),
      (r) => r.id,
      (r) => r.fromSectionId,
    ),
    targets: { ...facts.targets },
  };
  const head = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([MAGIC, length, head, ...bodies]);
}

export interface OpenedFile {
  header: Header;
  /** Where the rows start in the file. */
  base: number;
  /** Length of the header's text. */
  headerBytes: number;
  /** Section id → its position in header.rows. */
  index: Map<string, number>;
  /** Triplet id → its position in header.triplets. */
  tripletIndex: Map<string, number>;
}

/** `read` on the open file, then closed; null when the file cannot be opened or `read` throws. */
async function withFile<T>(file: string, read: (handle: FileHandle) => Promise<T | null>): Promise<T | null> {
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return null;
  try {
    return await read(handle);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** `length` bytes at `position`, or null when the file is shorter. */
async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return bytesRead < length ? null : buffer;
}

/** Whether the file is of this format (its first bytes only): a file of another version is written again. */
export async function hasCurrentFormat(file: string): Promise<boolean> {
  return (await withFile(file, async (handle) => (await bytesAt(handle, 0, MAGIC.length))?.equals(MAGIC) ?? null)) === true;
}

export function readHeader(file: string): Promise<OpenedFile | null> {
  return withFile(file, async (handle) => {
    const head = await bytesAt(handle, 0, HEAD);
    if (head === null || !head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const length = head.readUInt32LE(MAGIC.length);
    const body = await bytesAt(handle, HEAD, length);
    if (body === null) return null;
    const header = headerSchema.parse(JSON.parse(body.toString("utf8")));
    return {
      header,
      base: HEAD + length,
      headerBytes: length,
      index: new Map(header.rows.map((r, i) => [r[0], i])),
      tripletIndex: new Map(header.triplets.map((r, i) => [r[0], i])),
    };
  });
}

export type Entry = readonly [id: string, owner: string | null, offset: number, length: number];

/** The rows of these entries, parsed and checked by `check`; null when any is unreadable. */
async function readRows<T>(file: string, base: number, entries: readonly Entry[], check: (value: unknown, entry: Entry) => T | null): Promise<T[] | null> {
  const wanted = [...entries].sort((a, b) => a[2] - b[2]);
  if (wanted.length === 0) return [];
  return withFile(file, async (handle) => {
    const out: T[] = [];
    let i = 0;
    while (i < wanted.length) {
      // One read for a run of rows close together.
      let j = i;
      while (j + 1 < wanted.length) {
        const last = wanted[j];
        const next = wanted[j + 1];
        if (last === undefined || next === undefined || next[2] - (last[2] + last[3]) > COALESCE_GAP_BYTES) break;
        j++;
      }
      const first = wanted[i];
      const end = wanted[j];
      if (first === undefined || end === undefined) return null;
      const buffer = await bytesAt(handle, base + first[2], end[2] + end[3] - first[2]);
      if (buffer === null) return null;
      for (let k = i; k <= j; k++) {
        const entry = wanted[k];
        if (entry === undefined) return null;
        const value = check(JSON.parse(buffer.toString("utf8", entry[2] - first[2], entry[2] - first[2] + entry[3])), entry);
        if (value === null) return null;
        out.push(value);
      }
      i = j + 1;
    }
    return out;
  });
}

/** A row that parses with `schema` and is the entry's row of this document, or null. */
function ownRow<T extends { id: string; documentId: string }>(schema: z.ZodType<T>, opened: OpenedFile): (value: unknown, entry: Entry) => T | null {
  return (value, entry) => {
    const parsed = schema.safeParse(value);
    return parsed.success && parsed.data.id === entry[0] && parsed.data.documentId === opened.header.documentId ? parsed.data : null;
  };
}

export function sectionRows(file: string, opened: OpenedFile, entries: readonly Entry[]): Promise<Section[] | null> {
  return readRows(file, opened.base, entries, ownRow(sectionSchema, opened));
}

/**
 * Citation rows with their resolution as the library holds it now: a citation into another
 * document that has since been deleted (or deleted and imported again) is unresolved, as the
 * delete made it in the library (schema.ts DOCUMENT_CASCADE).
 */
export async function withTargets(
  file: string,
  opened: OpenedFile,
  held: ReadonlyMap<string, DocumentRecord>,
  entries: readonly Entry[],
): Promise<CrossReferenceRecord[] | null> {
  const rows = await readRows(file, opened.base, entries, ownRow(referenceSchema, opened));
  return (
    rows?.map((r) => {
      if (!r.resolved || r.toDocumentId === null || r.toDocumentId === opened.header.documentId) return r;
      const target = held.get(r.toDocumentId);
      return target !== undefined && opened.header.targets[r.toDocumentId] === target.importedAt ? r : { ...r, toSectionId: null, resolved: false };
    }) ?? null
  );
}

export async function tripletRows(file: string, opened: OpenedFile, entries: readonly Entry[]): Promise<TripletRecord[] | null> {
  const rows = await readRows(file, opened.base, entries, ownRow(tripletSchema, opened));
  // A triplet names a recipient with both fields or with neither (store-rows.ts tripletFromNode).
  return rows?.map(({ recipientId, recipient, ...rest }) => (recipient === undefined ? rest : { ...rest, recipientId: recipientId ?? "", recipient })) ?? null;
}
