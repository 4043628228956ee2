import { toErrorInfo } from "../model/errors.ts";
import { searchLibrary } from "./search.ts";
import type { EngineContext } from "./context.ts";

/**
 * Libraries up to this many sections have all their rows read into the read cache at warm-up;
 * larger ones fill it as they are searched, so a large library does not hold its whole text.
 */
const WARM_LIBRARY_SECTIONS = 5_000;

/**
 * Loads what the first question needs, in the background: the embedding model, the indexes, the
 * sentence and English pipelines, then the library's rows. Never a reason to fail: a warm-up that
 * fails leaves the loading to the first question.
 */
export async function warmUp(ctx: EngineContext): Promise<void> {
  try {
    await searchLibrary(ctx, "warm up", { k: 1 });
    ctx.languageResources.sentencePipeline();
    ctx.languageResources.englishNlp();
    // In small chunks searches interleave with (read-cache.ts warmLibrary).
    const warmed = await ctx.store.warmLibrary(WARM_LIBRARY_SECTIONS, () => ctx.isClosed());
    if (warmed > 0) ctx.log(`read cache warmed with ${warmed} sections`);
  } catch (err) {
    ctx.log(`warm-up failed: ${toErrorInfo(err).message}`);
  }
}
