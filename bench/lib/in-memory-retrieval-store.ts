// A RetrievalStore for the benchmark while the Kuzu store lacks vectors and triplets: BM25 comes
// from the real Kuzu store (the same index the app queries); vectors, triplets, structure and
// cross-references are held in memory and searched by brute force (13.7k × 100-d is ~2 ms).
import type { KuzuGraphStore } from "../../core/store/kuzu-store.ts";
import type { DocumentRecord, SearchHit } from "../../core/store/graph-store.ts";
import type { CrossReferenceRecord, ScoredId, TermRecord, TripletRecord } from "../../core/store/graph-types.ts";
import type { RetrievalStore } from "../../core/retrieve/retrieval-store.ts";
import type { Section } from "../../core/structure/types.ts";

export interface InMemoryData {
  documents: ReadonlyArray<{ record: DocumentRecord; sections: readonly Section[] }>;
  sectionVectors: ReadonlyMap<string, Float32Array>;
  triplets: readonly TripletRecord[];
  tripletVectors: ReadonlyMap<string, Float32Array>;
  crossReferences: readonly CrossReferenceRecord[];
  terms: readonly TermRecord[];
}

interface VectorIndex {
  ids: string[];
  matrix: Float32Array;
  dims: number;
}

function buildIndex(vectors: ReadonlyMap<string, Float32Array>): VectorIndex {
  const ids = [...vectors.keys()];
  const dims = vectors.values().next().value?.length ?? 0;
  const matrix = new Float32Array(ids.length * dims);
  ids.forEach((id, i) => matrix.set(vectors.get(id) ?? new Float32Array(dims), i * dims));
  return { ids, matrix, dims };
}

function topK(index: VectorIndex, query: Float32Array, k: number): ScoredId[] {
  const { ids, matrix, dims } = index;
  if (dims === 0 || query.length !== dims) return [];
  const scores = new Float32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    let dot = 0;
    const base = i * dims;
    for (let j = 0; j < dims; j++) dot += (matrix[base + j] ?? 0) * (query[j] ?? 0);
    scores[i] = dot;
  }
  // The k-th best score from a typed-array sort, then one pass: far cheaper than sorting indices.
  const sorted = Float32Array.from(scores).sort();
  const threshold = sorted[Math.max(0, sorted.length - k)] ?? Number.NEGATIVE_INFINITY;
  const picked: ScoredId[] = [];
  for (let i = 0; i < ids.length; i++) if ((scores[i] ?? 0) >= threshold) picked.push({ id: ids[i] ?? "", score: scores[i] ?? 0 });
  return picked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k);
}

export function createInMemoryRetrievalStore(kuzu: KuzuGraphStore, data: InMemoryData): RetrievalStore {
  const sections = new Map<string, { section: Section; document: DocumentRecord }>();
  const children = new Map<string, string[]>();
  for (const doc of data.documents) {
    for (const section of doc.sections) {
      sections.set(section.id, { section, document: doc.record });
      if (section.parentId !== null) {
        const list = children.get(section.parentId) ?? [];
        list.push(section.id);
        children.set(section.parentId, list);
      }
    }
  }
  const sectionIndex = buildIndex(data.sectionVectors);
  const tripletIndex = buildIndex(data.tripletVectors);
  const tripletById = new Map(data.triplets.map((t) => [t.id, t]));
  const refsBySection = new Map<string, CrossReferenceRecord[]>();
  for (const ref of data.crossReferences) {
    for (const id of [ref.fromSectionId, ref.toSectionId]) {
      if (id === null || id === "") continue;
      const list = refsBySection.get(id) ?? [];
      list.push(ref);
      refsBySection.set(id, list);
    }
  }
  return {
    searchSections: (query: string, k: number): Promise<SearchHit[]> => kuzu.searchSections(query, k),
    searchSectionsByVector: async (vector, k) => topK(sectionIndex, vector, k),
    searchTripletsByVector: async (vector, k) =>
      topK(tripletIndex, vector, k).flatMap((hit) => {
        const triplet = tripletById.get(hit.id);
        return triplet ? [{ triplet, score: hit.score }] : [];
      }),
    getSectionsByIds: async (ids) => ids.flatMap((id) => sections.get(id) ?? []),
    getChildSectionIds: async (ids) => new Map(ids.map((id) => [id, children.get(id) ?? []])),
    getCrossReferences: async (ids) => {
      const out = new Map<string, CrossReferenceRecord>();
      for (const id of ids) for (const ref of refsBySection.get(id) ?? []) out.set(ref.id, ref);
      return [...out.values()];
    },
    getTermsByNormalized: async (normalized) => {
      const wanted = new Set(normalized);
      return data.terms.filter((t) => wanted.has(t.normalizedTerm));
    },
    getTripletsForSections: async (ids) => {
      const wanted = new Set(ids);
      return data.triplets.filter((t) => wanted.has(t.sectionId));
    },
  };
}
