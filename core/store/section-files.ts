import { readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../files/private-files.ts";
import type { CrossReferenceRecord, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import type { DocumentRecord, SearchHit } from "../model/store-records.ts";
import type { GraphStore } from "./graph-store.ts";
import { isPureRead } from "./read-cache.ts";
import { wrapStore } from "./store-wrapper.ts";
import { byReferenceOrder, byTripletOrder } from "./record-order.ts";
import {
  encodeSectionFile,
  fileOf,
  hasCurrentFormat,
  readHeader,
  sectionRows,
  stampMatches,
  tripletRows,
  withTargets,
  type DocumentFacts,
  type Entry,
  type Header,
  type OpenedFile,
  type SectionRow,
} from "./section-file-format.ts";

export { encodeSectionFile, type DocumentFacts } from "./section-file-format.ts";

// Each document's sections in a file of its own beside the library (`<library>.sections/<id>.sec`),
// read by offset. Kuzu 0.11.3 reads the text and spans columns of every row of a node group to
// filter it, so reading the few sections a search found costs as much as scanning the table, and
// that grows with the library; a document's sections never change once imported, so a file
// written when it is stored can answer those reads at any library size.
//
// Rule "a file is only a copy": the library stays the one source of truth. A file is used only
// while its stamp (sha256, import time, section count, schema version) matches the document the
// library holds; anything else (missing, stale, unreadable, a row that does not parse) is read
// from the library as before, and the file is written again in the background from what the
// library holds. A delete removes the file before the library's rows; an insert writes it after
// they are committed; so a crash leaves a file that matches, or none, or one whose document is gone
// (ignored, and removed at the next open).

export function sectionFileDirectory(dbPath: string): string {
  return `${dbPath}.sections`;
}

export interface SectionFileOptions {
  log?: (message: string) => void;
  /** True while the library must not be written to (nor anything beside it). */
  readOnly?: () => boolean;
}

export interface SectionFileControls {
  /** Waits until no file is being written in the background (tests, benches). */
  sectionFilesSettled(): Promise<void>;
}

const documentOf = (id: string): string => id.slice(0, Math.max(0, id.indexOf(":")));

function groupByDocument(ids: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of new Set(ids)) {
    const list = out.get(documentOf(id));
    if (list === undefined) out.set(documentOf(id), [id]);
    else list.push(id);
  }
  return out;
}

/**
 * Documents whose files are read side by side: a search's rows come from a few dozen files, and
 * reading them one after another left the engine waiting on each file's open, read and close in
 * turn; a bound keeps a request that spans the whole library from opening every file at once.
 */
const FILES_SIDE_BY_SIDE = 16;

/** `work` over `items` with at most `limit` under way at once; results in the items' order. */
async function mapSideBySide<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * Header text kept open, in bytes (a parsed header takes about three times its text in memory): a
 * search reads sections of a few dozen documents, and re-reading a header it let go cost more than
 * the rows it wanted; a library of thousands of documents still does not keep every header.
 */
const HEADER_BYTES_KEPT = 48 * 1024 * 1024;

/** Opened headers that forget the least recently used past a total of header bytes (always keeping the newest). */
class BoundedHeaders extends Map<string, OpenedFile | null> {
  private bytes = 0;
  constructor(private readonly capacity: number) {
    super();
  }
  override get(key: string): OpenedFile | null | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }
  override set(key: string, value: OpenedFile | null): this {
    this.delete(key);
    super.set(key, value);
    this.bytes += value?.headerBytes ?? 0;
    for (const [oldest, held] of this) {
      if (this.bytes <= this.capacity || this.size <= 1) break;
      this.bytes -= held?.headerBytes ?? 0;
      super.delete(oldest);
    }
    return this;
  }
  override delete(key: string): boolean {
    this.bytes -= super.get(key)?.headerBytes ?? 0;
    return super.delete(key);
  }
  override clear(): void {
    this.bytes = 0;
    super.clear();
  }
  /** True once the headers kept take their whole budget. */
  get full(): boolean {
    return this.bytes >= this.capacity;
  }
}

/**
 * Methods that change no row themselves, passed through as they are: some answer at once
 * (memoryUse, isReadOnly), and batchWrites' task writes through this wrapper.
 */
const PASS_THROUGH: ReadonlySet<string> = new Set([
  "memoryUse",
  "compactIfGrown",
  "isReadOnly",
  "batchWrites",
  "refreshSearchIndex",
  "searchIndexSettled",
  "prepareSearch",
]);

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

// Long function: a closure over the open files' headers and the background writer; each wrapped method is a few lines.
/**
 * The store with reads of sections and triplets by id served from the documents' files where they
 * match the library, and those files kept: written at insert, removed before a delete or a change
 * of the document's triplets, written again in the background for documents stored before (or
 * whose file was lost or is stale). Everything else passes through.
 */
export function withSectionFiles<S extends GraphStore>(store: S, directory: string, options: SectionFileOptions = {}): S & SectionFileControls {
  const log = options.log ?? (() => {});
  const readOnly = options.readOnly ?? (() => false);
  /** Opened headers by document id, the most recently used last; null: no usable file (until it is written again). */
  const headers = new BoundedHeaders(HEADER_BYTES_KEPT);
  /** A file being written, by document: removing it waits for that write (never for the queue). */
  const writing = new Map<string, Promise<void>>();
  let documents: Map<string, DocumentRecord> | null = null;
  let schemaVersion: number | null = null;
  let generation = 0;
  let closed = false;
  const pending = new Set<string>();
  let writer: Promise<void> = Promise.resolve();

  const forgetDocuments = (): void => {
    generation++;
    documents = null;
  };

  async function library(): Promise<Map<string, DocumentRecord>> {
    if (documents !== null) return documents;
    const started = generation;
    const list = new Map((await store.listDocuments()).map((d) => [d.id, d]));
    schemaVersion ??= await store.schemaVersion();
    if (generation === started) documents = list;
    return list;
  }

  /** The document's file if it matches the library's document, else null (and a rewrite is queued). */
  async function usable(doc: DocumentRecord): Promise<{ file: string; opened: OpenedFile } | null> {
    const file = fileOf(directory, doc.id);
    if (file === null || schemaVersion === null) return null;
    let opened = headers.get(doc.id);
    if (opened === undefined) {
      opened = await readHeader(file);
      headers.set(doc.id, opened);
    }
    if (opened !== null && stampMatches(opened.header, doc, schemaVersion)) return { file, opened };
    headers.set(doc.id, null);
    rewrite(doc.id);
    return null;
  }

  /**
   * Writes the file unless a write to the library began since `since` (its caller read the rows
   * before): the check and the claim happen in one turn, so a removal that starts later waits for it.
   */
  async function writeFileOf(doc: DocumentRecord, sections: readonly Section[], facts: DocumentFacts, since: number): Promise<void> {
    const file = fileOf(directory, doc.id);
    if (file === null || schemaVersion === null || readOnly() || generation !== since || writing.has(doc.id)) return;
    const version = schemaVersion;
    const done = (async () => {
      await ensurePrivateDir(directory);
      const temporary = `${file}.tmp-${process.pid}`;
      await writeFile(temporary, encodeSectionFile(doc, sections, facts, version), { mode: PRIVATE_FILE_MODE });
      await rename(temporary, file);
    })();
    writing.set(doc.id, done);
    try {
      await done;
    } finally {
      writing.delete(doc.id);
      headers.delete(doc.id);
    }
  }

  /** The document's triplets and citations as the library holds them, and the import times of the documents cited. */
  async function factsOf(documentId: string): Promise<DocumentFacts> {
    const triplets = await store.getTriplets(documentId);
    const references = await store.getDocumentReferences(documentId);
    const held = await library();
    const targets: Record<string, string> = {};
    for (const r of references) {
      const target = r.resolved && r.toDocumentId !== null && r.toDocumentId !== documentId ? held.get(r.toDocumentId) : undefined;
      if (target !== undefined) targets[target.id] = target.importedAt;
    }
    return { triplets, references, targets };
  }

  /** Removes a document's file before a write changes its rows (after any write of it under way). */
  async function removeFileOf(documentId: string): Promise<void> {
    forgetDocuments();
    headers.set(documentId, null);
    const file = fileOf(directory, documentId);
    if (file === null || readOnly()) return;
    await writing.get(documentId)?.catch(() => undefined);
    await rm(file, { force: true });
  }

  /** Writes a document's file from what the library holds, one document at a time, in the background. */
  function rewrite(documentId: string): void {
    if (closed || readOnly() || pending.has(documentId)) return;
    pending.add(documentId);
    writer = writer.then(async () => {
      try {
        if (closed) return;
        const since = generation;
        const doc = (await library()).get(documentId);
        if (doc === undefined) return;
        const sections = await store.getSections(documentId);
        if (sections.length === doc.sections) await writeFileOf(doc, sections, await factsOf(documentId), since);
      } catch (err) {
        log(`section file of ${documentId} not written: ${messageOf(err)}`);
      } finally {
        pending.delete(documentId);
      }
    });
  }

  /**
   * Queues a rewrite for every document without a file of this format (at open, in the writer's
   * turn). Only the folder and each file's first bytes are read: a stale file is found when it is
   * first read, so opening a large library parses no header.
   */
  async function writeMissing(): Promise<void> {
    if (closed || readOnly()) return;
    try {
      const present = new Set(await readdir(directory).catch(() => [] as string[]));
      for (const id of (await library()).keys()) {
        const file = fileOf(directory, id);
        if (file !== null && (!present.has(`${id}.sec`) || !(await hasCurrentFormat(file)))) rewrite(id);
      }
    } catch (err) {
      log(`section files not checked: ${messageOf(err)}`);
    }
  }

  /** Files of documents the library no longer holds (a delete interrupted between the two). */
  async function removeOrphans(): Promise<void> {
    if (readOnly()) return;
    const names = await readdir(directory).catch(() => [] as string[]);
    if (names.length === 0) return;
    const held = await library();
    for (const name of names) {
      const id = name.replace(/\.sec(\.tmp-\d+)?$/, "");
      if (name.includes(".tmp-") || !held.has(id)) await rm(path.join(directory, name), { force: true });
    }
  }

  /**
   * Per document of `ids`: its usable file, or the ids it could not serve (`missing`, read from the
   * library by the caller). `serve` returns null when the file turned out unreadable.
   */
  async function fromFiles<T>(
    ids: readonly string[],
    serve: (file: string, opened: OpenedFile, wanted: string[]) => Promise<T[] | null>,
  ): Promise<{ found: T[]; missing: string[] }> {
    const held = await library();
    const found: T[] = [];
    const missing: string[] = [];
    const served = await mapSideBySide([...groupByDocument(ids)], FILES_SIDE_BY_SIDE, async ([documentId, wanted]) => {
      const doc = held.get(documentId);
      const source = doc === undefined ? null : await usable(doc);
      const rows = source === null ? null : await serve(source.file, source.opened, wanted);
      return { documentId, wanted, source, rows };
    });
    for (const { documentId, wanted, source, rows } of served) {
      if (rows !== null) {
        found.push(...rows);
        continue;
      }
      if (source !== null) {
        headers.set(documentId, null);
        rewrite(documentId);
      }
      missing.push(...wanted);
    }
    return { found, missing };
  }

  const entriesOf = (list: Header["rows"] | Header["triplets"] | Header["references"], positions: Iterable<number | undefined>): Entry[] =>
    [...positions].flatMap((at) => {
      const entry = at === undefined ? undefined : list[at];
      return entry === undefined ? [] : [entry];
    });

  async function sectionsByIds(ids: readonly string[]): Promise<SectionRow[]> {
    if (ids.length === 0) return [];
    const held = await library();
    const { found, missing } = await fromFiles(ids, (file, opened, wanted) =>
      sectionRows(
        file,
        opened,
        entriesOf(
          opened.header.rows,
          wanted.map((id) => opened.index.get(id)),
        ),
      ),
    );
    const byId = new Map<string, SectionRow>();
    for (const section of found) {
      const document = held.get(section.documentId);
      if (document !== undefined) byId.set(section.id, { section, document });
    }
    if (missing.length > 0) for (const row of await store.getSectionsByIds(missing)) byId.set(row.section.id, row);
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  const wrapped = {
    async open(): Promise<void> {
      closed = false;
      forgetDocuments();
      headers.clear();
      schemaVersion = null;
      await store.open();
      schemaVersion = await store.schemaVersion();
      await removeOrphans().catch((err: unknown) => log(`section files not tidied: ${messageOf(err)}`));
      // A library stored before these files (or that lost some) gets them in the background.
      writer = writer.then(writeMissing);
    },

    async close(): Promise<void> {
      closed = true;
      await writer;
      headers.clear();
      forgetDocuments();
      await store.close();
    },

    async insertDocument(...args: Parameters<GraphStore["insertDocument"]>): Promise<void> {
      const [doc, sections] = args;
      await removeFileOf(doc.id);
      try {
        await store.insertDocument(...args);
      } finally {
        forgetDocuments();
      }
      // Stored: the file follows (its facts as the library reads them). Failing costs speed, not data.
      try {
        const since = generation;
        await writeFileOf(doc, sections, await factsOf(doc.id), since);
      } catch (err) {
        log(`section file of ${doc.id} not written: ${messageOf(err)}`);
      }
    },

    async deleteDocument(id: string): Promise<boolean> {
      await removeFileOf(id);
      try {
        return await store.deleteDocument(id);
      } finally {
        forgetDocuments();
        headers.delete(id);
      }
    },

    async replaceLlmTriplets(...args: Parameters<GraphStore["replaceLlmTriplets"]>): ReturnType<GraphStore["replaceLlmTriplets"]> {
      const [documentId] = args;
      await removeFileOf(documentId);
      try {
        return await store.replaceLlmTriplets(...args);
      } finally {
        forgetDocuments();
        headers.delete(documentId);
        rewrite(documentId);
      }
    },

    getSectionsByIds: (ids: string[]): Promise<SectionRow[]> => sectionsByIds(ids),

    // The full-text index gives ids; their sections come from the files, as any read by id does.
    async searchSections(query: string, k: number): Promise<SearchHit[]> {
      const hits = await store.searchSectionIds(query, k);
      const rows = new Map((await sectionsByIds(hits.map((h) => h.id))).map((r) => [r.section.id, r]));
      return hits.flatMap((h) => {
        const row = rows.get(h.id);
        return row === undefined ? [] : [{ ...row, score: h.score }];
      });
    },

    async getSection(id: string): Promise<Section | null> {
      return (await sectionsByIds([id]))[0]?.section ?? null;
    },

    async getSections(documentId: string): Promise<Section[]> {
      const { found, missing } = await fromFiles([`${documentId}:`], (file, opened) => sectionRows(file, opened, opened.header.rows));
      return missing.length > 0 ? store.getSections(documentId) : found;
    },

    async getChildSectionIds(ids: string[]): Promise<Map<string, string[]>> {
      const { found, missing } = await fromFiles(ids, (_file, opened, wanted) => {
        const parents = new Set(wanted);
        return Promise.resolve([opened.header.rows.filter((r) => r[1] !== null && parents.has(r[1]))]);
      });
      const out = new Map<string, string[]>(ids.map((id) => [id, []]));
      for (const rows of found) for (const r of rows) if (r[1] !== null) out.get(r[1])?.push(r[0]);
      if (missing.length > 0) for (const [id, children] of await store.getChildSectionIds(missing)) out.set(id, children);
      return out;
    },

    async getCrossReferences(ids: string[]): Promise<CrossReferenceRecord[]> {
      if (ids.length === 0) return [];
      const held = await library();
      const wanted = new Set(ids);
      /** The citations of a file whose header entry passes `keep`, resolved as the library holds them now. */
      const citations = (keep: (entry: Entry) => boolean) => (file: string, opened: OpenedFile) =>
        withTargets(file, opened, held, opened.header.references.filter(keep));
      // The citations the sections make, from their documents' files.
      const leaving = await fromFiles(ids, (file, opened, mine) => {
        const own = new Set(mine);
        return citations((r) => r[1] !== null && own.has(r[1]))(file, opened);
      });
      if (leaving.missing.length > 0) return store.getCrossReferences(ids);
      // The citations into them: their ids from the library, their rows from the citing documents' files.
      const read = new Set(leaving.found.map((r) => r.id));
      const into = (await store.getReferenceIdsInto(ids)).filter((r) => !read.has(r.id));
      const entering = await fromFiles(
        into.map((r) => `${r.documentId}:${r.id}`),
        (file, opened, keys) => {
          const refs = new Set(keys.map((k) => k.slice(k.indexOf(":") + 1)));
          return citations((r) => refs.has(r[0]))(file, opened);
        },
      );
      if (entering.missing.length > 0) return store.getCrossReferences(ids);
      const unique = new Map<string, CrossReferenceRecord>();
      for (const r of [...leaving.found, ...entering.found])
        if (wanted.has(r.fromSectionId) || (r.toSectionId !== null && wanted.has(r.toSectionId))) unique.set(r.id, r);
      return [...unique.values()].sort(byReferenceOrder);
    },

    async getTripletsForSections(ids: string[]): Promise<TripletRecord[]> {
      if (ids.length === 0) return [];
      const { found, missing } = await fromFiles(ids, (file, opened, wanted) => {
        const sections = new Set(wanted);
        return tripletRows(
          file,
          opened,
          opened.header.triplets.filter((t) => sections.has(t[1])),
        );
      });
      const rows = missing.length > 0 ? [...found, ...(await store.getTripletsForSections(missing))] : found;
      return rows.sort(byTripletOrder);
    },

    async getTripletsByIds(ids: string[]): Promise<TripletRecord[]> {
      if (ids.length === 0) return [];
      const { found, missing } = await fromFiles(ids, (file, opened, wanted) =>
        tripletRows(
          file,
          opened,
          entriesOf(
            opened.header.triplets,
            wanted.map((id) => opened.tripletIndex.get(id)),
          ),
        ),
      );
      return missing.length > 0 ? [...found, ...(await store.getTripletsByIds(missing))] : found;
    },

    async getTriplets(documentId: string): Promise<TripletRecord[]> {
      const { found, missing } = await fromFiles([`${documentId}:`], (file, opened) => tripletRows(file, opened, opened.header.triplets));
      return missing.length > 0 ? store.getTriplets(documentId) : found.sort(byTripletOrder);
    },

    /** Documents' headers read, in the library's order, until their budget is full. */
    async warmReads(stop: () => boolean): Promise<void> {
      await store.warmReads(stop);
      for (const doc of (await library()).values()) {
        if (stop() || closed || headers.full) return;
        if (!headers.has(doc.id)) await usable(doc);
      }
    },

    sectionFilesSettled: async (): Promise<void> => {
      await writer;
      while (pending.size > 0) await writer;
    },
  };

  // Anything that may write: the document list is read again after it.
  return wrapStore(
    store,
    wrapped,
    (name) => isPureRead(name) || PASS_THROUGH.has(name),
    async (_name, _args, call) => {
      forgetDocuments();
      try {
        return await call();
      } finally {
        forgetDocuments();
      }
    },
  );
}
