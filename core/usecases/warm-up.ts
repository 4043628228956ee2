import { toErrorInfo } from "../model/errors.ts";
import { searchLibrary } from "./search.ts";
import type { EngineContext } from "./context.ts";

/**
 * Libraries up to this many sections have all their rows read into the read cache at warm-up;
 * larger ones fill it as they are searched, so a large library does not hold its whole text.
 */
const WARM_LIBRARY_SECTIONS = 5_000;

/** What the warm-up searches for: its answer is dropped. */
const WARM_UP_QUESTION = "What must be reported to the authority, by whom, and within what time?";

/**
 * Loads what the first question needs, in the background: the embedding model, the indexes, what
 * the store reads at a search's first need (its files' headers, the citations and terms across
 * documents), the sentence and English pipelines, then the library's rows. Never a reason to fail: a warm-up that
 * fails leaves the loading to the first question.
 */
export async function warmUp(ctx: EngineContext): Promise<void> {
  try {
    // A question of any library, with enough candidates to run every stage once (the first runs
    // of the re-scoring are several times slower than the next ones).
    await searchLibrary(ctx, WARM_UP_QUESTION, { k: 1 });
    await ctx.store.warmReads(() => ctx.isClosed());
    ctx.languageResources.sentencePipeline();
    ctx.languageResources.englishNlp();
    // In small chunks searches interleave with (read-cache.ts warmLibrary).
    const warmed = await ctx.store.warmLibrary(WARM_LIBRARY_SECTIONS, () => ctx.isClosed());
    if (warmed > 0) ctx.log(`read cache warmed with ${warmed} sections`);
  } catch (err) {
    ctx.log(`warm-up failed: ${toErrorInfo(err).message}`);
  }
}
