import { chunks } from "../batches.ts";
import type { KuzuSession } from "../session.ts";
import { EXTRACTION_CACHE_TABLE } from "../schema.ts";

// Reads of the LLM extraction cache (schema v4, core/llm-extract/cache-key.ts).

export async function readExtractionCache(session: KuzuSession, keys: readonly string[], batchSize: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const batch of chunks(keys, batchSize)) {
    const rows = await session.run(`MATCH (c:${EXTRACTION_CACHE_TABLE}) WHERE list_contains($keys, c.key) RETURN c.key AS key, c.json AS json`, {
      keys: batch,
    });
    for (const r of rows) out.set(String(r.key), String(r.json));
  }
  return out;
}
