// Fills a real Kuzu store with the benchmark corpus through the same stages as an import:
// derived graph (cross-references, terms, rule triplets), embeddings of sections and triplets,
// one transaction per document, then the search indexes (BM25, HNSW) built once at the end.
import { embedDerived } from "../../core/embed/embed-derived.ts";
import type { Embedder } from "../../core/model/embedder.ts";
import { createEnglishNlp } from "../../core/extract/obligations.ts";
import { buildDerivedGraph } from "../../core/graph/build-derived-graph.ts";
import type { KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import type { BenchDocument } from "./obliqa-sections.ts";

export interface IngestFigures {
  /** Graph derivation (citations, terms, triplets). */
  deriveSeconds: number;
  embedSeconds: number;
  storeSeconds: number;
  /** BM25 and vector indexes built after the load. */
  indexSeconds: number;
  sections: number;
  triplets: number;
  crossReferences: number;
  resolvedCrossReferences: number;
  terms: number;
  embeddedPerSecond: number;
}

export async function ingestIntoKuzu(
  store: KuzuGraphStore,
  documents: readonly BenchDocument[],
  embedder: Embedder | null,
  log: (line: string) => void = () => {},
): Promise<IngestFigures> {
  const nlp = createEnglishNlp();
  const others = documents.map((d) => ({ id: d.record.id, title: d.record.title, sections: d.sections }));
  if (embedder) await store.useEmbeddingSpace({ modelId: embedder.id, dimensions: embedder.dimensions });
  let derive = 0;
  let embed = 0;
  let storing = 0;
  let embedded = 0;
  for (const [i, doc] of documents.entries()) {
    let t = performance.now();
    const derived = buildDerivedGraph({ id: doc.record.id, title: doc.record.title, language: doc.record.language }, doc.sections, others, { nlp });
    derive += performance.now() - t;
    t = performance.now();
    if (embedder) {
      await embedDerived(embedder, doc.sections, derived);
      embedded += derived.sectionEmbeddings.size + derived.tripletEmbeddings.size;
    }
    embed += performance.now() - t;
    t = performance.now();
    await store.insertDocument(doc.record, doc.sections, derived);
    storing += performance.now() - t;
    if ((i + 1) % 10 === 0) log(`  ${i + 1}/${documents.length} documents stored`);
  }
  const t = performance.now();
  await store.refreshSearchIndex();
  const indexSeconds = (performance.now() - t) / 1000;
  const stats = await store.stats();
  return {
    deriveSeconds: derive / 1000,
    embedSeconds: embed / 1000,
    storeSeconds: storing / 1000,
    indexSeconds,
    sections: stats.sections,
    triplets: stats.triplets,
    crossReferences: stats.crossReferences,
    resolvedCrossReferences: stats.resolvedCrossReferences,
    terms: stats.terms,
    embeddedPerSecond: embed > 0 ? embedded / (embed / 1000) : 0,
  };
}
