import type { RetrievalStore } from "../store/retrieval-store.ts";

export interface TripletSectionHit {
  sectionId: string;
  /** Best similarity of any of the section's matching triplets. */
  score: number;
  tripletIds: string[];
}

// Dense retrieval over (subject, predicate, object) triplets: a question about who must do what
// often matches one obligation better than the whole section around it. Hits are folded onto
// their sections, keeping the triplet ids as evidence.
export async function tripletStage(store: RetrievalStore, queryVector: Float32Array | null, k: number): Promise<TripletSectionHit[]> {
  if (queryVector === null || k < 1) return [];
  const hits = await store.searchTripletIdsByVector(queryVector, k);
  const bySection = new Map<string, TripletSectionHit>();
  for (const { id, sectionId, score } of hits) {
    const seen = bySection.get(sectionId);
    if (seen) {
      seen.score = Math.max(seen.score, score);
      seen.tripletIds.push(id);
    } else {
      bySection.set(sectionId, { sectionId, score, tripletIds: [id] });
    }
  }
  return [...bySection.values()].sort((a, b) => b.score - a.score || (a.sectionId < b.sectionId ? -1 : 1));
}
