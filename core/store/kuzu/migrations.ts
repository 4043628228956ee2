import { ClauseGraphError } from "../../model/errors.ts";
import type { KuzuSession } from "./session.ts";
import { registryAliases } from "../../names/document-instruments.ts";
import {
  META_TABLE,
  SCHEMA_V1,
  SCHEMA_V2,
  SCHEMA_V3,
  SCHEMA_V4,
  SCHEMA_V5,
  SCHEMA_V6_OCR,
  SCHEMA_V7_COMPARE,
  SCHEMA_V8_GRAPH_QUESTIONS,
  SCHEMA_VERSION_KEY,
} from "./schema.ts";
import { sectionFromNode } from "./store-rows.ts";

// The schema evolves by appending migrations: version N runs on a database at N-1, inside one
// transaction that also records N, so a crash mid-migration leaves the previous version intact.
// Full-text search is not part of the schema: it has a database of its own, built from the
// sections (search-database.ts).

export interface Migration {
  version: number;
  description: string;
  up(session: KuzuSession): Promise<void>;
}

function statements(list: readonly string[]): (session: KuzuSession) => Promise<void> {
  return async (session) => {
    for (const cypher of list) await session.run(cypher);
  };
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: "documents, sections and their structure", up: statements(SCHEMA_V1) },
  { version: 2, description: "cross-references and defined terms", up: statements(SCHEMA_V2) },
  { version: 3, description: "entities and triplets", up: statements(SCHEMA_V3) },
  { version: 4, description: "LLM extraction cache and per-section triplet spans", up: statements(SCHEMA_V4) },
  { version: 5, description: "document aliases (instrument names)", up: withDocumentAliases },
  { version: 6, description: "OCR summary of scanned documents", up: statements(SCHEMA_V6_OCR) },
  { version: 7, description: "comparisons of two documents (SIMILAR_TO crosswalks)", up: statements(SCHEMA_V7_COMPARE) },
  { version: 8, description: "party types, recipients and deadlines (questions the graph answers)", up: statements(SCHEMA_V8_GRAPH_QUESTIONS) },
];

/** Version 5, and the registry's aliases of the documents already imported (their title and first section). */
async function withDocumentAliases(session: KuzuSession): Promise<void> {
  await statements(SCHEMA_V5)(session);
  for (const row of await session.run("MATCH (d:Document) RETURN d.id AS id, d.title AS title")) {
    const id = String(row.id);
    const first = await session.run("MATCH (s:Section) WHERE s.documentId = $id RETURN s ORDER BY s.ordinal LIMIT 1", { id });
    const aliases = registryAliases(
      String(row.title ?? ""),
      first.map((r) => sectionFromNode(r.s)),
    );
    if (aliases.length > 0) await session.run("MATCH (d:Document) WHERE d.id = $id SET d.aliases = $aliases", { id, aliases });
  }
}

export const CURRENT_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

export interface MigrationPlan {
  from: number;
  to: number;
}

/** Called before an existing database (from > 0) is migrated: the place for a backup. */
export type BeforeMigrate = (plan: MigrationPlan) => Promise<void> | void;

/** 0 for a database without the Meta table (a new, empty file). */
export async function readSchemaVersion(session: KuzuSession): Promise<number> {
  const tables = await session.run("CALL show_tables() RETURN name");
  if (!tables.some((t) => t.name === META_TABLE)) return 0;
  const rows = await session.run(`MATCH (m:${META_TABLE}) WHERE m.key = $key RETURN m.value AS value`, {
    key: SCHEMA_VERSION_KEY,
  });
  const value = rows[0]?.value;
  const version = typeof value === "string" ? Number.parseInt(value, 10) : Number.NaN;
  if (!Number.isInteger(version) || version < 0) {
    throw new ClauseGraphError("SCHEMA_MISMATCH", `the database records an unreadable schema version (${String(value)})`);
  }
  return version;
}

export async function writeSchemaVersion(session: KuzuSession, version: number): Promise<void> {
  await session.run(`MERGE (m:${META_TABLE} {key: $key}) SET m.value = $value`, {
    key: SCHEMA_VERSION_KEY,
    value: String(version),
  });
}

export interface MigrateOptions {
  dbPath: string;
  readOnly: boolean;
  migrations?: readonly Migration[];
  beforeMigrate?: BeforeMigrate;
  log?: (message: string) => void;
}

/** Brings the database to the newest known version; returns that version. */
export async function migrate(session: KuzuSession, options: MigrateOptions): Promise<number> {
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((a, b) => a.version - b.version);
  const target = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const from = await readSchemaVersion(session);
  if (from > target) {
    throw new ClauseGraphError(
      "SCHEMA_MISMATCH",
      `the database ${options.dbPath} has schema version ${from}, newer than this ClauseGraph knows (${target}): update the application`,
      { file: options.dbPath },
    );
  }
  if (from === target) return from;
  if (options.readOnly) {
    throw new ClauseGraphError(
      "SCHEMA_MISMATCH",
      `the database ${options.dbPath} has schema version ${from} and needs ${target}: open it read-write once to upgrade it`,
      { file: options.dbPath },
    );
  }
  if (from > 0) await options.beforeMigrate?.({ from, to: target });
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    await session.transaction(async () => {
      await migration.up(session);
      await writeSchemaVersion(session, migration.version);
    });
    options.log?.(`database schema migrated to v${migration.version}: ${migration.description}`);
  }
  return target;
}
