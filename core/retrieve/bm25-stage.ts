import type { SearchHit } from "../model/store-records.ts";
import type { RetrievalStore } from "../store/retrieval-store.ts";

// Lexical retrieval: the store's BM25 over label, heading and text, queried with the content
// words of the question (see query-terms.ts). The hits carry their sections, which saves the
// later stages a lookup.
export async function bm25Stage(store: RetrievalStore, text: string, k: number): Promise<SearchHit[]> {
  if (text.trim() === "" || k < 1) return [];
  return store.searchSections(text, k);
}
