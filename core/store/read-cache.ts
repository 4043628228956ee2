import type { GraphStore, StoreReads, StoreWrites } from "./graph-store.ts";
import type { StoreLifecycle } from "./ports/lifecycle.ts";
import type { DocumentRecord, SearchHit } from "../model/store-records.ts";
import type { CrossReferenceRecord, DerivedGraph, TermRecord, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import { makeRoom } from "../text/index.ts";
import { byReferenceOrder, byTripletOrder } from "./record-order.ts";
import { wrapStore } from "./store-wrapper.ts";

// Retrieval asks the database for the same few things about every candidate (the section rows,
// children, citations, triplets, terms), a dozen round trips per question. Those
// rows change only when a document is written, so a read-through cache in front of the store
// serves repeated questions (and the ancestors, neighbours and definitions shared between
// questions) from memory.
//
// Correctness rule: any method not known to be a pure read empties the cache, before and after
// it runs, so a write added to GraphStore later can never leave stale rows behind. The known
// exceptions are named below: an insert forgets its document's rows and the exact cross-document
// entries it changes, then reads its new rows in (cached.insertDocument); a delete forgets its
// document's rows and edits the cross-document entries as its cascade does (cached.deleteDocument);
// vector writes forget that document's rows and what spans documents (DOCUMENT_WRITES); two
// methods change no row (ROW_NEUTRAL); and a model switch forgets only when it changed something.
// A read that was in flight across a write does not fill the cache (generation check).

/**
 * Pure reads: they neither change stored data nor need the cache emptied. Typed by the read ports
 * (graph-store.ts StoreReads): a read added to a port fails to compile until it is listed here, and a
 * write cannot be listed; any method not listed empties the cache.
 */
const PURE_READS: Readonly<Record<keyof StoreReads, true>> = {
  schemaVersion: true,
  findDocumentBySha: true,
  getDocument: true,
  listDocuments: true,
  getSection: true,
  getSections: true,
  getDocumentOutlines: true,
  getCrossReferences: true,
  getDocumentReferences: true,
  getReferenceIdsInto: true,
  getTermsByNormalized: true,
  getTermsByIds: true,
  getCrossDocumentRows: true,
  searchSections: true,
  searchSectionIds: true,
  sectionVectorsByIds: true,
  searchTripletIdsByVector: true,
  getTripletsByIds: true,
  searchSectionsByVector: true,
  getSectionsByIds: true,
  getChildSectionIds: true,
  getTripletsForSections: true,
  getTriplets: true,
  getTripletsForEntityKeys: true,
  stats: true,
  embeddingSpace: true,
  documentsMissingEmbeddings: true,
  getExtractionCache: true,
  checkLibrary: true,
  getSectionVectors: true,
  nearestSections: true,
  getComparison: true,
  listComparisons: true,
  getComparisonEdges: true,
  getComparisonCache: true,
  graphSchema: true,
  readOnlyQuery: true,
};
const PURE_READ_NAMES = new Set<string>(Object.keys(PURE_READS));

/** True for a store method that neither changes stored data nor needs caches of rows emptied. */
export function isPureRead(name: string): boolean {
  return PURE_READ_NAMES.has(name);
}

/**
 * Writes confined to one document (its id is what they return): they add, change or remove only
 * rows of that document, whose section, triplet and vector ids all start with `<documentId>:`. The
 * per-section entries of the other documents stay; what spans documents (citations entering a
 * section, terms by name) is emptied. Emptying everything at each write made every search during
 * an import read its rows from Kuzu while the import's insert ran on the other connection: those
 * reads, and so the searches, were many times slower while the two largest PDFs were imported again.
 */
const DOCUMENT_WRITES: Readonly<Partial<Record<keyof StoreWrites, (args: readonly unknown[]) => string | null>>> = {
  // insertDocument and deleteDocument are wrapped on their own (withReadCache): what they change is known exactly.
  putEmbeddings: (args) => (typeof args[0] === "string" ? args[0] : null),
};

/**
 * Neither read nor write of rows: batchWrites writes nothing itself (what its task writes goes
 * through this cache), refreshSearchIndex builds the full-text and vector indexes only, and
 * searchIndexSettled waits for their background merges.
 */
function isDocumentWrite(name: string): name is keyof typeof DOCUMENT_WRITES {
  return Object.hasOwn(DOCUMENT_WRITES, name);
}

const ROW_NEUTRAL: ReadonlySet<string> = new Set<Exclude<keyof StoreLifecycle, "open" | "close">>([
  "batchWrites",
  "refreshSearchIndex",
  "searchIndexSettled",
  "memoryUse",
  "compactIfGrown",
  "warmReads",
  "prepareSearch",
]);

/**
 * Ids per lookup when a stored document's rows are read into the cache: each lookup holds the
 * read lane for one query, so a search arriving meanwhile waits for one chunk, not the document
 * (larger chunks held the lane noticeably longer for triplets).
 */
const WARM_CHUNK = 40;

/** Entries per map at most (the oldest go first): bounds memory for very large libraries. */
const DEFAULT_CAPACITY = 50_000;

type SectionRow = { section: Section; document: DocumentRecord };

/** Keys of the cross-document maps a write changes: sections its citations enter, terms it defines. */
interface CrossDocumentKeys {
  references: string[];
  terms: string[];
}

/** How a write confined to one document changed the cross-document entries. */
type CrossDocumentChange = CrossDocumentKeys | "deleted" | "unknown";

/** What inserting this document changes outside its own keys (its sections are forgotten by prefix). */
function crossDocumentKeys(documentId: string, derived: DerivedGraph): CrossDocumentKeys {
  const prefix = `${documentId}:`;
  return {
    references: [...new Set(derived.crossReferences.flatMap((r) => (r.toSectionId !== null && !r.toSectionId.startsWith(prefix) ? [r.toSectionId] : [])))],
    terms: [...new Set(derived.terms.map((t) => t.normalizedTerm))],
  };
}

export interface ReadCacheStats {
  hits: number;
  misses: number;
  /** Rows held now, over every map. */
  entries: number;
}

/** What the cache adds to the store it wraps. */
export interface ReadCacheControls {
  readCacheStats(): ReadCacheStats;
  /**
   * A value derived from the document list, computed once per state of the list: every search and
   * question reads the documents' names, and copying and folding hundreds of records each time
   * cost a search of a large library milliseconds for nothing. The value must not be changed.
   */
  memoOfDocuments<T>(derive: (documents: readonly DocumentRecord[]) => T): () => Promise<T>;
  warmLibrary(maxSections: number, stop?: () => boolean): Promise<number>;
}

class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly capacity: number) {
    super();
  }
  remember(key: string, value: V): void {
    makeRoom(this, this.capacity);
    this.set(key, value);
  }
}

// Long function: a closure over the cache's maps; each wrapped read is a few lines.
/**
 * The store with a read-through cache of the per-section lookups retrieval repeats. Everything
 * else passes through unchanged; the returned object has the same type as the store.
 */
export function withReadCache<S extends GraphStore>(store: S, options: { capacity?: number } = {}): S & ReadCacheControls {
  const capacity = Math.max(1, options.capacity ?? DEFAULT_CAPACITY);
  const sections = new BoundedMap<SectionRow | null>(capacity);
  const children = new BoundedMap<string[]>(capacity);
  const references = new BoundedMap<CrossReferenceRecord[]>(capacity);
  const triplets = new BoundedMap<TripletRecord[]>(capacity);
  const terms = new BoundedMap<TermRecord[]>(capacity);
  const counters = { hits: 0, misses: 0 };
  let generation = 0;
  /**
   * Documents known to be absent (deleted through this cache): their rows are answered as absent
   * from memory, even while the same document is being inserted again. Kuzu shows a reader the
   * last committed state, which is that absence, but a read of the Section or Triplet table while
   * the writer appends a large document to it waited for that write, lookup after lookup, while
   * GDPR was imported again (the full-text index still answering for the old copy returned its
   * section ids, and each search looked them up).
   */
  const absent = new Set<string>();
  const documentOf = (key: string): string => key.slice(0, Math.max(0, key.indexOf(":")));
  /** The library's document list (every search reads it for the names it scopes by). */
  let documents: DocumentRecord[] | null = null;
  /** Forgets the values derived from `documents` (memoOfDocuments) whenever it is forgotten. */
  const derived = new Set<() => void>();
  const forgetDocuments = (): void => {
    documents = null;
    for (const reset of derived) reset();
  };
  const forget = (): void => {
    generation++;
    absent.clear();
    forgetDocuments();
    for (const map of [sections, children, references, triplets, terms]) map.clear();
  };
  /**
   * Around a write confined to one document: its own entries go when it starts and when it ends;
   * what spans documents (citations entering a section, terms by name) is brought up to date when
   * it ends (`after`) — until the write commits, readers see the state before it, which is what
   * those entries hold.
   */
  const forgetDocument = (documentId: string, ended: boolean, after: CrossDocumentChange = "unknown"): void => {
    generation++;
    const prefix = `${documentId}:`;
    for (const map of [sections, children, triplets, references]) {
      for (const key of [...map.keys()]) if (key.startsWith(prefix)) map.delete(key);
    }
    if (!ended) return;
    forgetDocuments();
    if (after === "unknown") {
      references.clear();
      terms.clear();
    } else if (after === "deleted") {
      // As the delete cascade leaves them (schema.ts DOCUMENT_CASCADE): the document's citations
      // and terms are gone, and citations of other documents into it are unresolved again.
      for (const [key, list] of references) {
        references.set(
          key,
          list.flatMap((r) => (r.documentId === documentId ? [] : r.toDocumentId === documentId ? [{ ...r, toSectionId: null, resolved: false }] : [r])),
        );
      }
      for (const [key, list] of terms) {
        terms.set(
          key,
          list.filter((t) => t.documentId !== documentId),
        );
      }
    } else {
      for (const key of after.references) references.delete(key);
      for (const key of after.terms) terms.delete(key);
    }
  };

  /** Serves what is cached, asks the store for the rest, and caches that if no write intervened. */
  async function readThrough<V>(
    keys: readonly string[],
    cache: BoundedMap<V>,
    fetch: (missing: string[]) => Promise<Map<string, V>>,
    /** What a key of an absent document reads as (none for keys that are not document-scoped). */
    absentValue?: () => V,
  ): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const hit = cache.get(key);
      if (hit !== undefined) out.set(key, hit);
      else if (absentValue !== undefined && absent.has(documentOf(key))) out.set(key, absentValue());
      else missing.push(key);
    }
    counters.hits += out.size;
    counters.misses += missing.length;
    if (missing.length === 0) return out;
    const started = generation;
    const fetched = await fetch(missing);
    for (const key of missing) {
      const value = fetched.get(key);
      if (value === undefined) continue;
      out.set(key, value);
      if (generation === started) cache.remember(key, value);
    }
    return out;
  }

  const cached = {
    async listDocuments(): Promise<DocumentRecord[]> {
      if (documents !== null) {
        counters.hits++;
        // Copies: a caller sorting a record's aliases in place must not change what the next one reads.
        return structuredClone(documents);
      }
      counters.misses++;
      const started = generation;
      const list = await store.listDocuments();
      if (generation === started) documents = structuredClone(list);
      return list;
    },

    async getSectionsByIds(ids: string[]): Promise<SectionRow[]> {
      const rows = await readThrough(
        ids,
        sections,
        async (missing) => {
          const found = new Map<string, SectionRow | null>(missing.map((id) => [id, null]));
          for (const row of await store.getSectionsByIds(missing)) found.set(row.section.id, row);
          return found;
        },
        () => null,
      );
      return ids.flatMap((id) => rows.get(id) ?? []);
    },

    async getChildSectionIds(ids: string[]): Promise<Map<string, string[]>> {
      const rows = await readThrough(
        ids,
        children,
        (missing) => store.getChildSectionIds(missing),
        () => [],
      );
      return new Map(ids.map((id) => [id, rows.get(id) ?? []]));
    },

    async getCrossReferences(ids: string[]): Promise<CrossReferenceRecord[]> {
      if (ids.length === 0) return [];
      const rows = await readThrough(
        ids,
        references,
        async (missing) => {
          const found = new Map<string, CrossReferenceRecord[]>(missing.map((id) => [id, []]));
          for (const ref of await store.getCrossReferences(missing)) {
            found.get(ref.fromSectionId)?.push(ref);
            if (ref.toSectionId !== null && ref.toSectionId !== ref.fromSectionId) found.get(ref.toSectionId)?.push(ref);
          }
          return found;
        },
        () => [],
      );
      const unique = new Map<string, CrossReferenceRecord>();
      for (const list of rows.values()) for (const ref of list) unique.set(ref.id, ref);
      return [...unique.values()].sort(byReferenceOrder);
    },

    async getTripletsForSections(ids: string[]): Promise<TripletRecord[]> {
      if (ids.length === 0) return [];
      const rows = await readThrough(
        ids,
        triplets,
        async (missing) => {
          const found = new Map<string, TripletRecord[]>(missing.map((id) => [id, []]));
          for (const t of await store.getTripletsForSections(missing)) found.get(t.sectionId)?.push(t);
          return found;
        },
        () => [],
      );
      return [...rows.values()].flat().sort(byTripletOrder);
    },

    async getTermsByNormalized(normalized: string[]): Promise<TermRecord[]> {
      if (normalized.length === 0) return [];
      const rows = await readThrough(normalized, terms, async (missing) => {
        const found = new Map<string, TermRecord[]>(missing.map((t) => [t, []]));
        for (const term of await store.getTermsByNormalized(missing)) found.get(term.normalizedTerm)?.push(term);
        return found;
      });
      const list = [...rows.values()].flat();
      return list.sort((a, b) =>
        a.documentId < b.documentId
          ? -1
          : a.documentId > b.documentId
            ? 1
            : a.normalizedTerm < b.normalizedTerm
              ? -1
              : a.normalizedTerm > b.normalizedTerm
                ? 1
                : 0,
      );
    },

    /** BM25 ranks ids in the database; the sections come from the cache (graph-store.ts searchSectionIds). */
    async searchSections(query: string, k: number): Promise<SearchHit[]> {
      const hits = await store.searchSectionIds(query, k);
      const rows = new Map((await cached.getSectionsByIds(hits.map((h) => h.id))).map((r) => [r.section.id, r]));
      return hits.flatMap((h) => {
        const row = rows.get(h.id);
        return row === undefined ? [] : [{ ...row, score: h.score }];
      });
    },

    /**
     * An insert adds rows of its own document only, plus citations entering the sections it cites
     * and the terms it defines: exactly those are forgotten, the rest of the cache stays. Then the
     * new rows are read into the cache, between this write and the next: a search during the next
     * import that finds this document reads them from memory. Read from Kuzu while the next insert
     * appended to the same tables, even a few dozen such rows were slow (bench:ingest, re-import under searches).
     */
    async insertDocument(doc: DocumentRecord, rows: Section[], derived?: DerivedGraph): Promise<void> {
      forgetDocument(doc.id, false);
      try {
        await store.insertDocument(doc, rows, derived);
      } finally {
        forgetDocument(doc.id, true, derived === undefined ? "unknown" : crossDocumentKeys(doc.id, derived));
        // Inserted (or the insert undone): what the store says from now on.
        absent.delete(doc.id);
      }
      await warm(rows.map((r) => r.id));
    },

    /**
     * A delete takes out its document's rows and changes the cross-document entries in a known way
     * (schema.ts DOCUMENT_CASCADE): they are edited to match instead of emptied, so the searches
     * right after it (a file deleted to be imported again) still read the other documents from memory.
     * A delete that fails empties them.
     */
    async deleteDocument(id: string): Promise<boolean> {
      forgetDocument(id, false);
      let after: CrossDocumentChange = "unknown";
      try {
        const deleted = await store.deleteDocument(id);
        // Deleted (or never there): absent from now on, even while it is imported again.
        absent.add(id);
        after = "deleted";
        return deleted;
      } finally {
        forgetDocument(id, true, after);
      }
    },

    /**
     * Every section's rows read in, when the library has at most `maxSections` sections: what
     * the engine's warm-up does after opening. Searches during the first import then find the
     * rows in memory while its checkpoint holds Kuzu's readers back. Before this, a
     * search that needed a row nobody had read yet waited for the checkpoint. `stop` is asked
     * between chunks (the engine closing). Returns the sections read in (0: over the limit).
     */
    async warmLibrary(maxSections: number, stop: () => boolean = () => false): Promise<number> {
      const ids = (await store.getDocumentOutlines()).flatMap((outline) => outline.sections.map((section) => section.id));
      if (ids.length > maxSections) return 0;
      await warm(ids, stop);
      return ids.length;
    },

    memoOfDocuments<T>(derive: (documents: readonly DocumentRecord[]) => T): () => Promise<T> {
      let slot: { value: T } | null = null;
      derived.add(() => (slot = null));
      return async () => {
        if (slot !== null) return slot.value;
        const started = generation;
        const value = derive(await cached.listDocuments());
        if (generation === started) slot = { value };
        return value;
      };
    },

    readCacheStats: (): ReadCacheStats => ({
      ...counters,
      entries: [sections, children, references, triplets, terms].reduce((sum, map) => sum + map.size, absent.size + (documents?.length ?? 0)),
    }),
  };

  /** Sections' rows, read into the cache through the lookups retrieval makes. */
  async function warm(ids: readonly string[], stop: () => boolean = () => false): Promise<void> {
    await cached.listDocuments();
    for (let i = 0; i < ids.length && !stop(); i += WARM_CHUNK) {
      const chunk = ids.slice(i, i + WARM_CHUNK);
      await cached.getSectionsByIds(chunk);
      await cached.getChildSectionIds(chunk);
      await cached.getCrossReferences(chunk);
      await cached.getTripletsForSections(chunk);
    }
  }

  /**
   * Called before every import and re-embedding: it changes stored rows only when the model
   * changed (the old vectors dropped), so only then is everything forgotten. Forgetting at every
   * call emptied the cache right before each insert.
   */
  async function useEmbeddingSpace(call: () => Promise<unknown>): Promise<unknown> {
    try {
      const result: unknown = await call();
      if (typeof result !== "object" || result === null || !("changed" in result) || result.changed !== false) forget();
      return result;
    } catch (err) {
      forget();
      throw err;
    }
  }

  return wrapStore(
    store,
    cached,
    (name) => PURE_READ_NAMES.has(name) || ROW_NEUTRAL.has(name),
    async (name, args, call) => {
      if (name === "useEmbeddingSpace") return useEmbeddingSpace(call);
      // Anything else may write: nothing read before or during it may be served after it.
      const documentId = isDocumentWrite(name) ? (DOCUMENT_WRITES[name]?.(args) ?? null) : null;
      const clear = (ended: boolean): void => (documentId === null ? forget() : forgetDocument(documentId, ended));
      clear(false);
      try {
        return await call();
      } finally {
        clear(true);
      }
    },
  );
}
