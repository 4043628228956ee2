import { ClauseGraphError } from "../model/errors.ts";
import type { DerivedGraph, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import { isZeroVector, type Embedder } from "../model/embedder.ts";

// The embedding stage of the import pipeline: vectors for a document's sections and triplets,
// kept on the derived graph so they are stored in the same transaction as everything else.

/**
 * Texts per embedding call. Tokenising runs on the engine's thread, so a batch is also how long a
 * search during an import may wait for it. With batches of 64, a search that arrived while GDPR
 * was embedded waited noticeably. With 16, and searches going first between batches, no search during
 * the re-import waited long, and the embedding took no longer in all (bench:ingest).
 */
const EMBED_BATCH = 16;

/** Heading and body: the label ("Article 19") carries no meaning a vector could use. */
export function sectionEmbeddingText(section: Section): string {
  return `${section.heading}\n${section.text}`.trim();
}

export function tripletEmbeddingText(t: TripletRecord): string {
  return `${t.subject} ${t.predicate} ${t.object}`.trim();
}

/** Vectors of the texts, batch by batch; zero vectors (no known word) are left out. */
export async function embedAll(
  embedder: Embedder,
  items: ReadonlyArray<{ id: string; text: string }>,
  onBatch: (done: number) => void,
  signal?: AbortSignal,
  /** Between two batches: the engine lets its searches go first (core/jobs/foreground.ts). */
  pause?: () => Promise<void>,
): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (let i = 0; i < items.length; i += EMBED_BATCH) {
    if (i > 0 && pause) await pause();
    if (signal?.aborted) throw new ClauseGraphError("CANCELLED", "cancelled");
    const batch = items.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embedDocuments(batch.map((b) => b.text));
    vectors.forEach((v, j) => {
      const item = batch[j];
      if (item && !isZeroVector(v)) out.set(item.id, v);
    });
    onBatch(Math.min(items.length, i + EMBED_BATCH));
  }
  return out;
}

export interface EmbedDerivedOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  pause?: () => Promise<void>;
}

/** Fills `derived.sectionEmbeddings` and `derived.tripletEmbeddings`. */
export async function embedDerived(embedder: Embedder, sections: readonly Section[], derived: DerivedGraph, options: EmbedDerivedOptions = {}): Promise<void> {
  const sectionItems = sections.filter((x) => x.text !== "" || x.heading !== "").map((x) => ({ id: x.id, text: sectionEmbeddingText(x) }));
  const tripletItems = derived.triplets.map((t) => ({ id: t.id, text: tripletEmbeddingText(t) }));
  const total = sectionItems.length + tripletItems.length;
  const report = options.onProgress ?? (() => {});
  report(0, total);
  derived.sectionEmbeddings = await embedAll(embedder, sectionItems, (n) => report(n, total), options.signal, options.pause);
  derived.tripletEmbeddings = await embedAll(embedder, tripletItems, (n) => report(sectionItems.length + n, total), options.signal, options.pause);
}
