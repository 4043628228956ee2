import type { CitationInto, CrossDocumentRows, TermRecord } from "../model/graph-records.ts";
import type { GraphStore, StoreWrites } from "./graph-store.ts";
import type { StoreLifecycle } from "./ports/lifecycle.ts";
import { isPureRead } from "./read-cache.ts";
import { wrapStore } from "./store-wrapper.ts";

// Two reads of every search span the library rather than the sections it found: the citations
// entering those sections, and the defined terms the question names. Kuzu 0.11.3 answers both by
// scanning the whole Reference, Term and MENTIONS tables, a cost that grows with the library on
// every question. Both are small beside the sections (a citation is three ids, a term a phrase and
// its definition), so they are held in memory: read in a few statements when first needed, and
// read again after a write that may change them.
//
// Rule "the index is the library as last committed": it is dropped when such a write starts and
// read again only when none runs; a read of it that overlapped a write is thrown away. Until it is
// read (or when the library holds more rows than it may), the store answers as before.

/** Citations, terms and their mentions held at most, together: beyond, the store answers. */
const CROSS_DOCUMENT_ROWS_MAX = 2_000_000;

/**
 * Methods that change no citation and no term: vectors, caches, comparisons, aliases, the LLM's
 * triplets, and what writes no row at all. Any other method that is not a pure read drops the index.
 */
const LEAVES_INDEX: ReadonlySet<string> = new Set<keyof StoreWrites | Exclude<keyof StoreLifecycle, "open" | "close"> | "isReadOnly">([
  "useEmbeddingSpace",
  "putEmbeddings",
  "putExtractionCache",
  "replaceLlmTriplets",
  "setUserAliases",
  "startComparison",
  "writeComparison",
  "setComparisonVerdicts",
  "deleteComparison",
  "putComparisonCache",
  "batchWrites",
  "refreshSearchIndex",
  "searchIndexSettled",
  "memoryUse",
  "compactIfGrown",
  "isReadOnly",
]);

interface Index {
  into: Map<string, CitationInto[]>;
  termsByNormalized: Map<string, TermRecord[]>;
  termsById: Map<string, TermRecord>;
}

function indexOf(rows: CrossDocumentRows): Index {
  const into = new Map<string, CitationInto[]>();
  for (const c of rows.citationsInto) {
    const list = into.get(c.toSectionId);
    if (list === undefined) into.set(c.toSectionId, [c]);
    else list.push(c);
  }
  const termsByNormalized = new Map<string, TermRecord[]>();
  const termsById = new Map<string, TermRecord>();
  for (const t of rows.terms) {
    termsById.set(t.id, t);
    const list = termsByNormalized.get(t.normalizedTerm);
    if (list === undefined) termsByNormalized.set(t.normalizedTerm, [t]);
    else list.push(t);
  }
  return { into, termsByNormalized, termsById };
}

/** The order the store returns terms in (by document, then term), ties by id. */
function byTermOrder(a: TermRecord, b: TermRecord): number {
  if (a.documentId !== b.documentId) return a.documentId < b.documentId ? -1 : 1;
  if (a.normalizedTerm !== b.normalizedTerm) return a.normalizedTerm < b.normalizedTerm ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Copies: a caller may change what it was given. */
const copyTerms = (terms: readonly TermRecord[]): TermRecord[] => terms.map((t) => ({ ...t, mentionedIn: [...t.mentionedIn] })).sort(byTermOrder);

export interface CrossDocumentIndexStats {
  /** True while the index answers (false before its first read, after a write, or past its limit). */
  held: boolean;
  citations: number;
  terms: number;
}

export interface CrossDocumentIndexControls {
  crossDocumentIndexStats(): CrossDocumentIndexStats;
}

// Long function: a closure over the index and the writes under way; each wrapped read is a few lines.
/** The store with citations entering sections, and terms by name or id, answered from memory once read. */
export function withCrossDocumentIndex<S extends GraphStore>(
  store: S,
  options: { maxRows?: number; log?: (message: string) => void } = {},
): S & CrossDocumentIndexControls {
  const maxRows = options.maxRows ?? CROSS_DOCUMENT_ROWS_MAX;
  const log = options.log ?? (() => {});
  let index: Index | null = null;
  let loading: Promise<Index | null> | null = null;
  /** Changes when a write starts or ends: a read of the index begun before is not kept. */
  let generation = 0;
  let writes = 0;
  let closed = false;
  /** Not read again until the next write: the library was past the limit, or the read failed. */
  let unavailable = false;

  async function load(): Promise<Index | null> {
    const started = generation;
    try {
      const rows = await store.getCrossDocumentRows(maxRows);
      if (generation !== started || closed) return null;
      if (rows === null) {
        unavailable = true;
        log(`citations and terms are read from the library: more than ${maxRows} rows`);
        return null;
      }
      index = indexOf(rows);
      return index;
    } catch (err) {
      if (generation === started && !closed) {
        unavailable = true;
        log(`citations and terms are read from the library: ${err instanceof Error ? err.message : String(err)}`);
      }
      return null;
    }
  }

  function current(): Promise<Index | null> {
    if (index !== null) return Promise.resolve(index);
    if (closed || writes > 0 || unavailable) return Promise.resolve(null);
    if (loading === null) {
      const started = load();
      loading = started;
      void started.finally(() => {
        if (loading === started) loading = null;
      });
    }
    return loading;
  }

  const changed = (): void => {
    generation++;
    index = null;
    loading = null;
    unavailable = false;
  };

  /** A write that may change citations or terms: no index is held or read while it runs. */
  async function duringWrite<T>(call: () => Promise<T>): Promise<T> {
    writes++;
    changed();
    try {
      return await call();
    } finally {
      writes--;
      changed();
    }
  }

  const wrapped = {
    async getReferenceIdsInto(sectionIds: string[]): Promise<Array<{ id: string; documentId: string }>> {
      const held = await current();
      if (held === null) return store.getReferenceIdsInto(sectionIds);
      return [...new Set(sectionIds)].flatMap((id) => (held.into.get(id) ?? []).map((c) => ({ id: c.id, documentId: c.documentId })));
    },

    async getTermsByNormalized(normalizedTerms: string[]): Promise<TermRecord[]> {
      const held = await current();
      if (held === null) return store.getTermsByNormalized(normalizedTerms);
      return copyTerms([...new Set(normalizedTerms)].flatMap((n) => held.termsByNormalized.get(n) ?? []));
    },

    async getTermsByIds(ids: string[]): Promise<TermRecord[]> {
      const held = await current();
      if (held === null) return store.getTermsByIds(ids);
      return copyTerms([...new Set(ids)].flatMap((id) => held.termsById.get(id) ?? []));
    },

    async open(): Promise<void> {
      closed = false;
      await duringWrite(() => store.open());
    },

    async close(): Promise<void> {
      closed = true;
      changed();
      await store.close();
    },

    async warmReads(stop: () => boolean): Promise<void> {
      await store.warmReads(stop);
      if (!stop()) await current();
    },

    // The store's reads are queued first: its vector counts are short, the citations and terms a long read.
    async prepareSearch(): Promise<void> {
      await Promise.all([store.prepareSearch(), current()]);
    },

    crossDocumentIndexStats: (): CrossDocumentIndexStats => ({
      held: index !== null,
      citations: index === null ? 0 : [...index.into.values()].reduce((n, list) => n + list.length, 0),
      terms: index?.termsById.size ?? 0,
    }),
  };

  return wrapStore(
    store,
    wrapped,
    (name) => isPureRead(name) || LEAVES_INDEX.has(name),
    (_name, _args, call) => duringWrite(call),
  );
}
