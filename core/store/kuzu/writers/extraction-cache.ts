import type { ExtractionCacheEntry } from "../../../model/store-records.ts";
import type { KuzuSession } from "../session.ts";
import { EXTRACTION_CACHE_TABLE } from "../schema.ts";

// Writes of the LLM extraction cache (schema v4): one auto-committed statement per entry, so a
// crash leaves an entry either whole or absent, and an interrupted extraction resumes from it.

export async function writeExtractionCache(session: KuzuSession, entry: ExtractionCacheEntry, createdAt: string): Promise<void> {
  await session.run(
    `MERGE (c:${EXTRACTION_CACHE_TABLE} {key: $key}) SET c.modelId = $modelId, c.promptVersion = $promptVersion, c.json = $json, c.createdAt = $createdAt`,
    { ...entry, createdAt },
  );
}
