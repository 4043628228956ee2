import { open } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { CrossReferenceRecord, TripletRecord } from "../model/graph-records.ts";
import { sectionSchema, tripletSchema } from "../model/record-schemas.ts";
import type { Section } from "../model/section-types.ts";
import type { DocumentRecord } from "../model/store-records.ts";

// The format of a document's section file (section-files.ts): magic, header length, a JSON header
// (the document's stamp, then per row its id, owner and byte range), then the rows as JSON. Rows
// are read by offset, nearby ones in one read, and each is checked with its zod schema.

const MAGIC = Buffer.from("CGSECT03", "latin1");
const HEAD = MAGIC.length + 4;

/** Nearby rows are read in one go when the gap between them is under this many bytes. */
const COALESCE_GAP_BYTES = 64 * 1024;

const headerSchema = z.object({
  documentId: z.string(),
  sha256: z.string(),
  importedAt: z.string(),
  schemaVersion: z.number().int(),
  /** Per section, in document order: id, parent id, offset and length of its row after the header. */
  rows: z.array(z.tuple([z.string(), z.string().nullable(), z.number().int().nonnegative(), z.number().int().nonnegative()])),
  /** Per triplet, in the library's order (section, span, id): id, section id, offset, length. */
  triplets: z.array(z.tuple([z.string(), z.string(), z.number().int().nonnegative(), z.number().int().nonnegative()])),
  /** Per citation the document makes, in the library's order (section, span, id): id, citing section, offset, length. */
  references: z.array(z.tuple([z.string(), z.string(), z.number().int().nonnegative(), z.number().int().nonnegative()])),
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

export function byTripletOrder(a: TripletRecord, b: TripletRecord): number {
  return a.sectionId < b.sectionId ? -1 : a.sectionId > b.sectionId ? 1 : a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function byReferenceOrder(a: CrossReferenceRecord, b: CrossReferenceRecord): number {
  return a.fromSectionId < b.fromSectionId ? -1 : a.fromSectionId > b.fromSectionId ? 1 : a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
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
  const groups = [
    [...sections].sort((a, b) => a.ordinal - b.ordinal).map((s) => ({ row: s, key: s.id, owner: s.parentId })),
    [...facts.triplets].sort(byTripletOrder).map((t) => ({ row: t, key: t.id, owner: t.sectionId })),
    [...facts.references].sort(byReferenceOrder).map((r) => ({ row: r, key: r.id, owner: r.fromSectionId })),
  ];
  const entries: [Header["rows"], Header["triplets"], Header["references"]] = [[], [], []];
  const bodies: Buffer[] = [];
  let at = 0;
  groups.forEach((group, g) => {
    for (const { row, key, owner } of group) {
      const body = Buffer.from(JSON.stringify(row), "utf8");
      bodies.push(body);
      if (g === 0) entries[0].push([key, owner, at, body.length]);
      else if (g === 1) entries[1].push([key, owner ?? "", at, body.length]);
      else entries[2].push([key, owner ?? "", at, body.length]);
      at += body.length;
    }
  });
  const header: Header = {
    documentId: doc.id,
    sha256: doc.sha256,
    importedAt: doc.importedAt,
    schemaVersion,
    rows: entries[0],
    triplets: entries[1],
    references: entries[2],
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
  /** Section id → its position in header.rows. */
  index: Map<string, number>;
  /** Triplet id → its position in header.triplets. */
  tripletIndex: Map<string, number>;
}

/** Whether the file is of this format (its first bytes only): a file of another version is written again. */
export async function hasCurrentFormat(file: string): Promise<boolean> {
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return false;
  try {
    const head = Buffer.alloc(MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, MAGIC.length, 0);
    return bytesRead === MAGIC.length && head.equals(MAGIC);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

export async function readHeader(file: string): Promise<OpenedFile | null> {
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return null;
  try {
    const head = Buffer.alloc(HEAD);
    const { bytesRead } = await handle.read(head, 0, HEAD, 0);
    if (bytesRead < HEAD || !head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const length = head.readUInt32LE(MAGIC.length);
    const body = Buffer.alloc(length);
    const got = await handle.read(body, 0, length, HEAD);
    if (got.bytesRead < length) return null;
    const header = headerSchema.parse(JSON.parse(body.toString("utf8")));
    return {
      header,
      base: HEAD + length,
      index: new Map(header.rows.map((r, i) => [r[0], i])),
      tripletIndex: new Map(header.triplets.map((r, i) => [r[0], i])),
    };
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

export type Entry = readonly [id: string, owner: string | null, offset: number, length: number];

/** The rows of these entries, parsed and checked by `check`; null when any is unreadable. */
async function readRows<T>(file: string, base: number, entries: readonly Entry[], check: (value: unknown, entry: Entry) => T | null): Promise<T[] | null> {
  const wanted = [...entries].sort((a, b) => a[2] - b[2]);
  if (wanted.length === 0) return [];
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return null;
  try {
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
      const span = end[2] + end[3] - first[2];
      const buffer = Buffer.alloc(span);
      const { bytesRead } = await handle.read(buffer, 0, span, base + first[2]);
      if (bytesRead < span) return null;
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
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

export function sectionRows(file: string, opened: OpenedFile, entries: readonly Entry[]): Promise<Section[] | null> {
  return readRows(file, opened.base, entries, (value, entry) => {
    const parsed = sectionSchema.safeParse(value);
    return parsed.success && parsed.data.id === entry[0] && parsed.data.documentId === opened.header.documentId ? parsed.data : null;
  });
}

function referenceRows(file: string, opened: OpenedFile, entries: readonly Entry[]): Promise<CrossReferenceRecord[] | null> {
  return readRows(file, opened.base, entries, (value, entry) => {
    const parsed = referenceSchema.safeParse(value);
    return parsed.success && parsed.data.id === entry[0] && parsed.data.documentId === opened.header.documentId ? parsed.data : null;
  });
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
  const rows = await referenceRows(file, opened, entries);
  return (
    rows?.map((r) => {
      if (!r.resolved || r.toDocumentId === null || r.toDocumentId === opened.header.documentId) return r;
      const target = held.get(r.toDocumentId);
      return target !== undefined && opened.header.targets[r.toDocumentId] === target.importedAt ? r : { ...r, toSectionId: null, resolved: false };
    }) ?? null
  );
}

export function tripletRows(file: string, opened: OpenedFile, entries: readonly Entry[]): Promise<TripletRecord[] | null> {
  return readRows(file, opened.base, entries, (value, entry) => {
    const parsed = tripletSchema.safeParse(value);
    if (!parsed.success || parsed.data.id !== entry[0] || parsed.data.documentId !== opened.header.documentId) return null;
    const { recipientId, recipient, ...rest } = parsed.data;
    return recipient === undefined ? rest : { ...rest, recipientId: recipientId ?? "", recipient };
  });
}
