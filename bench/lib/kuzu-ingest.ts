// Fills a real Kuzu store with the benchmark corpus through the engine's own import pipeline
// (core/pipeline/ingestion-pipeline.ts), entered with sections already cut: derived graph
// (cross-references, terms, rule triplets), embeddings of sections and triplets, one transaction
// per document, then the search indexes (BM25, HNSW) built once at the end.
import path from "node:path";
import type { Embedder } from "../../core/model/embedder.ts";
import { createIngestionPipeline, type IngestTimings } from "../../core/pipeline/ingestion-pipeline.ts";
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
  // The benchmark's documents cite one another, imported or not yet: all of them are the others.
  const others = documents.map((d) => ({ id: d.record.id, title: d.record.title, sections: d.sections }));
  const pipeline = createIngestionPipeline({ dataDir: path.dirname(store.dbPath), getEmbedder: async () => embedder });
  const timings: IngestTimings = { deriveMs: 0, embedMs: 0, storeMs: 0, embedded: 0 };
  try {
    for (const [i, doc] of documents.entries()) {
      await pipeline.ingestDocument({ record: doc.record, sections: doc.sections }, { target: store, others: async () => others, timings });
      if ((i + 1) % 10 === 0) log(`  ${i + 1}/${documents.length} documents stored`);
    }
  } finally {
    pipeline.close();
  }
  const derive = timings.deriveMs;
  const embed = timings.embedMs;
  const embedded = timings.embedded;
  const t = performance.now();
  await store.refreshSearchIndex();
  const indexSeconds = (performance.now() - t) / 1000;
  const stats = await store.stats();
  return {
    deriveSeconds: derive / 1000,
    embedSeconds: embed / 1000,
    storeSeconds: timings.storeMs / 1000,
    indexSeconds,
    sections: stats.sections,
    triplets: stats.triplets,
    crossReferences: stats.crossReferences,
    resolvedCrossReferences: stats.resolvedCrossReferences,
    terms: stats.terms,
    embeddedPerSecond: embed > 0 ? embedded / (embed / 1000) : 0,
  };
}
