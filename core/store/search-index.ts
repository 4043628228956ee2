import type { KuzuSession } from "./kuzu-session.ts";
import { cypherString } from "./kuzu-session.ts";
import { FTS_IGNORE_PATTERN, FTS_INDEXES, type FtsIndexSpec } from "./schema.ts";

// Kuzu 0.11.3 maintains FTS indexes on insert and delete, but neither can be relied on: rows
// inserted while an index exists were sometimes missing from it (in 2-8 of 40 small batches in
// our runs), and deleting an indexed row whose terms were added incrementally segfaults the
// process (reproduced with three one-word rows; upstream kuzudb/kuzu#5671, never fixed: the
// project is archived). So no write ever runs with an index present: writers drop the indexes
// first, and the indexes are rebuilt from the committed data before the next search. A crash in
// between leaves only a missing index, which the next search rebuilds: nothing to repair on open.
// Rebuilding ~29k real paragraphs takes ~2.3 s on a 2-core machine, ~0.7 s for the 1k sections
// of the ten regulatory PDFs.

async function existingIndexes(session: KuzuSession): Promise<Set<string>> {
  const rows = await session.run("CALL SHOW_INDEXES() RETURN table_name AS t, index_name AS i");
  return new Set(rows.map((r) => `${String(r.t)}.${String(r.i)}`));
}

function key(spec: FtsIndexSpec): string {
  return `${spec.table}.${spec.name}`;
}

/** Drops every full-text index that exists; must run outside a transaction. */
export async function dropSearchIndexes(session: KuzuSession): Promise<number> {
  const existing = await existingIndexes(session);
  let dropped = 0;
  for (const spec of FTS_INDEXES) {
    if (!existing.has(key(spec))) continue;
    await session.run(`CALL DROP_FTS_INDEX(${cypherString(spec.table)}, ${cypherString(spec.name)})`);
    dropped++;
  }
  return dropped;
}

/** Creates the full-text indexes that are missing; returns how many were built. */
export async function ensureSearchIndexes(session: KuzuSession): Promise<number> {
  const existing = await existingIndexes(session);
  let built = 0;
  for (const spec of FTS_INDEXES) {
    if (existing.has(key(spec))) continue;
    const properties = `[${spec.properties.map(cypherString).join(", ")}]`;
    await session.run(
      `CALL CREATE_FTS_INDEX(${cypherString(spec.table)}, ${cypherString(spec.name)}, ${properties}, ` +
        `stemmer := 'porter', ignore_pattern := ${cypherString(FTS_IGNORE_PATTERN)})`,
    );
    built++;
  }
  return built;
}

export async function hasSearchIndexes(session: KuzuSession): Promise<boolean> {
  const existing = await existingIndexes(session);
  return FTS_INDEXES.every((spec) => existing.has(key(spec)));
}
