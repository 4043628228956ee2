import type { GraphStore } from "./graph-store.ts";
import type { DocumentRecord, SearchHit } from "../model/store-records.ts";
import type { CrossReferenceRecord, TermRecord, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";

// Retrieval asks the database for the same few things about every candidate (the section rows,
// children, citations, triplets, terms), a dozen round trips per question at 2–10 ms each. Those
// rows change only when a document is written, so a read-through cache in front of the store
// serves repeated questions (and the ancestors, neighbours and definitions shared between
// questions) from memory.
//
// Correctness rule: any method not known to be a pure read empties the cache, before and after
// it runs, so a write added to GraphStore later can never leave stale rows behind. A read that
// was in flight across a write does not fill the cache (generation check).

/** Pure reads: they neither change stored data nor need the cache emptied. */
const PURE_READS = new Set<string>([
  "schemaVersion",
  "findDocumentBySha",
  "getDocument",
  "listDocuments",
  "getSection",
  "getSections",
  "getDocumentOutlines",
  "getCrossReferences",
  "getTermsByNormalized",
  "getTermsByIds",
  "searchSections",
  "searchSectionIds",
  "sectionVectorsByIds",
  "searchTripletIdsByVector",
  "getTripletsByIds",
  "searchSectionsByVector",
  "searchTripletsByVector",
  "getSectionsByIds",
  "getChildSectionIds",
  "getTripletsForSections",
  "getTriplets",
  "getTripletsForEntityKeys",
  "stats",
  "embeddingSpace",
  "documentsMissingEmbeddings",
  "getExtractionCache",
  "checkLibrary",
  "getSectionVectors",
  "nearestSections",
  "getComparison",
  "listComparisons",
  "getComparisonEdges",
  "getComparisonCache",
  "graphSchema",
  "readOnlyQuery",
]);

/** Entries per map before it is emptied: bounds memory for very large libraries. */
const DEFAULT_CAPACITY = 50_000;

type SectionRow = { section: Section; document: DocumentRecord };

export interface ReadCacheStats {
  hits: number;
  misses: number;
}

class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly capacity: number) {
    super();
  }
  remember(key: string, value: V): void {
    if (this.size >= this.capacity) this.clear();
    this.set(key, value);
  }
}

function byReferenceOrder(a: CrossReferenceRecord, b: CrossReferenceRecord): number {
  return a.fromSectionId < b.fromSectionId ? -1 : a.fromSectionId > b.fromSectionId ? 1 : a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function byTripletOrder(a: TripletRecord, b: TripletRecord): number {
  return a.sectionId < b.sectionId ? -1 : a.sectionId > b.sectionId ? 1 : a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The store with a read-through cache of the per-section lookups retrieval repeats. Everything
 * else passes through unchanged; the returned object has the same type as the store.
 */
export function withReadCache<S extends GraphStore>(store: S, options: { capacity?: number } = {}): S & { readCacheStats(): ReadCacheStats } {
  const capacity = Math.max(1, options.capacity ?? DEFAULT_CAPACITY);
  const sections = new BoundedMap<SectionRow | null>(capacity);
  const children = new BoundedMap<string[]>(capacity);
  const references = new BoundedMap<CrossReferenceRecord[]>(capacity);
  const triplets = new BoundedMap<TripletRecord[]>(capacity);
  const terms = new BoundedMap<TermRecord[]>(capacity);
  const tripletRows = new BoundedMap<TripletRecord | null>(capacity);
  const counters: ReadCacheStats = { hits: 0, misses: 0 };
  let generation = 0;
  const forget = (): void => {
    generation++;
    for (const map of [sections, children, references, triplets, terms, tripletRows]) map.clear();
  };

  /** Serves what is cached, asks the store for the rest, and caches that if no write intervened. */
  async function readThrough<V>(keys: readonly string[], cache: BoundedMap<V>, fetch: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const hit = cache.get(key);
      if (hit === undefined) missing.push(key);
      else out.set(key, hit);
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
    async getSectionsByIds(ids: string[]): Promise<SectionRow[]> {
      const rows = await readThrough(ids, sections, async (missing) => {
        const found = new Map<string, SectionRow | null>(missing.map((id) => [id, null]));
        for (const row of await store.getSectionsByIds(missing)) found.set(row.section.id, row);
        return found;
      });
      return ids.flatMap((id) => rows.get(id) ?? []);
    },

    async getChildSectionIds(ids: string[]): Promise<Map<string, string[]>> {
      const rows = await readThrough(ids, children, (missing) => store.getChildSectionIds(missing));
      return new Map(ids.map((id) => [id, rows.get(id) ?? []]));
    },

    async getCrossReferences(ids: string[]): Promise<CrossReferenceRecord[]> {
      if (ids.length === 0) return [];
      const rows = await readThrough(ids, references, async (missing) => {
        const found = new Map<string, CrossReferenceRecord[]>(missing.map((id) => [id, []]));
        for (const ref of await store.getCrossReferences(missing)) {
          found.get(ref.fromSectionId)?.push(ref);
          if (ref.toSectionId !== null && ref.toSectionId !== ref.fromSectionId) found.get(ref.toSectionId)?.push(ref);
        }
        return found;
      });
      const unique = new Map<string, CrossReferenceRecord>();
      for (const list of rows.values()) for (const ref of list) unique.set(ref.id, ref);
      return [...unique.values()].sort(byReferenceOrder);
    },

    async getTripletsForSections(ids: string[]): Promise<TripletRecord[]> {
      if (ids.length === 0) return [];
      const rows = await readThrough(ids, triplets, async (missing) => {
        const found = new Map<string, TripletRecord[]>(missing.map((id) => [id, []]));
        for (const t of await store.getTripletsForSections(missing)) found.get(t.sectionId)?.push(t);
        return found;
      });
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

    /** The vector search ranks ids; the triplets come from the cache (a Kuzu lookup of ~5 ms otherwise). */
    async searchTripletsByVector(vector: Float32Array, k: number): Promise<Array<{ triplet: TripletRecord; score: number }>> {
      const hits = await store.searchTripletIdsByVector(vector, k);
      const rows = await readThrough(
        hits.map((h) => h.id),
        tripletRows,
        async (missing) => {
          const found = new Map<string, TripletRecord | null>(missing.map((id) => [id, null]));
          for (const t of await store.getTripletsByIds(missing)) found.set(t.id, t);
          return found;
        },
      );
      return hits.flatMap((h) => {
        const triplet = rows.get(h.id);
        return triplet === undefined || triplet === null ? [] : [{ triplet, score: h.score }];
      });
    },

    readCacheStats: (): ReadCacheStats => ({ ...counters }),
  };

  return new Proxy(store, {
    get(target, property, receiver) {
      if (typeof property === "string" && Object.hasOwn(cached, property)) return cached[property as keyof typeof cached];
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string" || PURE_READS.has(property)) return value;
      // Anything else may write: nothing read before or during it may be served after it.
      return async (...args: unknown[]) => {
        forget();
        try {
          return await (value as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          forget();
        }
      };
    },
  }) as S & { readCacheStats(): ReadCacheStats };
}
