import type { KuzuSession } from "../session.ts";
import { META_TABLE } from "../schema.ts";

// Writes of the library's Meta key/values (schema version: migrations.ts; embedding model,
// dead vector counts: vectors.ts, vector-compaction.ts).

export async function writeMeta(session: KuzuSession, key: string, value: string): Promise<void> {
  await session.run(`MERGE (m:${META_TABLE} {key: $key}) SET m.value = $value`, { key, value });
}
