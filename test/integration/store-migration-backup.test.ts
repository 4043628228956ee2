import { existsSync } from "node:fs";
import path from "node:path";
import kuzu from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMigrationBackup, listMigrationBackups, MigrationFailedError } from "../../core/store/kuzu/migration-backup.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";
import { MIGRATIONS, type Migration } from "../../core/store/kuzu/migrations.ts";
import { tempDir } from "../helpers/store-fixtures.ts";

// The database is copied aside before a schema migration and put back when one fails,
// so an upgrade can never cost an auditor the library.

const FAILING: Migration = {
  version: 4,
  description: "a migration that breaks halfway",
  up: async (session) => {
    await session.run("CREATE NODE TABLE Broken(id STRING PRIMARY KEY)");
    throw new Error("deliberate failure in migration 4");
  },
};

/** Runs statements on a database the store does not hold open (to seed or inspect old versions). */
async function raw(dbPath: string, statements: string[]): Promise<Record<string, unknown>[]> {
  const db = new kuzu.Database(dbPath, 64 * 1024 * 1024);
  const conn = new kuzu.Connection(db, 1);
  const out: Record<string, unknown>[] = [];
  try {
    for (const cypher of statements) {
      const result = await conn.query(cypher);
      for (const r of Array.isArray(result) ? result : [result]) {
        out.push(...(await r.getAll()));
        r.close();
      }
    }
  } finally {
    await conn.close();
    await db.close();
  }
  return out;
}

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;

beforeEach(() => {
  tmp = tempDir("cg-migrate-");
  dbPath = path.join(tmp.dir, "graph.kuzu");
});

afterEach(() => {
  tmp.cleanup();
});

describe("kuzu store: backup before migration", () => {
  it("restores the database when a migration fails, and names the backup", async () => {
    const old = createKuzuStore({ dbPath, migrations: MIGRATIONS.slice(0, 2) });
    await old.open();
    expect(await old.schemaVersion()).toBe(2);
    await old.close();
    // A new database is not backed up: there is nothing to lose.
    expect(await listMigrationBackups(dbPath)).toEqual([]);
    await raw(dbPath, ["CREATE (:Document {id: 'kept-doc', title: 'Kept through a failed upgrade', sections: 1})"]);

    // v3 succeeds and commits, v4 fails: both must be undone.
    const upgrade = createKuzuStore({ dbPath, migrations: [...MIGRATIONS, FAILING] });
    const err = await upgrade.open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MigrationFailedError);
    const failure = err as MigrationFailedError;
    expect(failure.code).toBe("DB_ERROR");
    expect(failure.file).toBe(dbPath);
    expect(failure.message).toContain(failure.backupPath);
    expect(failure.message).toContain("deliberate failure");
    expect(existsSync(failure.backupPath)).toBe(true);

    const reopened = createKuzuStore({ dbPath, migrations: MIGRATIONS.slice(0, 2) });
    await reopened.open();
    expect(await reopened.schemaVersion()).toBe(2);
    await reopened.close();
    const tables = (await raw(dbPath, ["CALL show_tables() RETURN name"])).map((r) => r.name);
    expect(tables).not.toContain("Broken");
    expect(tables).not.toContain("Triplet");
    const docs = await raw(dbPath, ["MATCH (d:Document) RETURN d.id AS id, d.title AS title"]);
    expect(docs).toEqual([{ id: "kept-doc", title: "Kept through a failed upgrade" }]);
  });

  it("leaves a backup after a successful migration and keeps the data", async () => {
    const old = createKuzuStore({ dbPath, migrations: MIGRATIONS.slice(0, 2) });
    await old.open();
    await old.close();
    await raw(dbPath, ["CREATE (:Document {id: 'kept-doc', title: 'Upgraded', sections: 1})"]);

    const logs: string[] = [];
    const current = createKuzuStore({ dbPath, log: (m) => logs.push(m) });
    await current.open();
    expect(await current.schemaVersion()).toBe(MIGRATIONS.length);
    expect((await current.listDocuments()).map((d) => d.id)).toEqual(["kept-doc"]);
    await current.close();

    const backups = await listMigrationBackups(dbPath);
    expect(backups).toHaveLength(1);
    expect(path.basename(backups[0] ?? "")).toMatch(/^graph\.kuzu\.backup-v2-\d{8}T\d{6}Z$/);
    expect(existsSync(path.join(backups[0] ?? "", "graph.kuzu"))).toBe(true);
    expect(logs.some((m) => m.includes("backed up"))).toBe(true);
    // The backup is a database at the old version on its own.
    const inBackup = await raw(path.join(backups[0] ?? "", "graph.kuzu"), ["MATCH (d:Document) RETURN d.id AS id"]);
    expect(inBackup).toEqual([{ id: "kept-doc" }]);
  });

  it("keeps only the two newest backups", async () => {
    const old = createKuzuStore({ dbPath, migrations: MIGRATIONS.slice(0, 1) });
    await old.open();
    await old.close();
    let t = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 4; i++) {
      const backup = createMigrationBackup(dbPath, { now: () => new Date((t += 60_000)) });
      await backup.beforeMigrate({ from: 1, to: 2 });
    }
    const names = (await listMigrationBackups(dbPath)).map((p) => path.basename(p));
    expect(names).toEqual(["graph.kuzu.backup-v1-20260101T000300Z", "graph.kuzu.backup-v1-20260101T000400Z"]);
    // Two within the same second get a counter and still sort after the first.
    const sameSecond = createMigrationBackup(dbPath, { now: () => new Date(t) });
    await sameSecond.beforeMigrate({ from: 1, to: 2 });
    expect((await listMigrationBackups(dbPath)).map((p) => path.basename(p))).toEqual([
      "graph.kuzu.backup-v1-20260101T000400Z",
      "graph.kuzu.backup-v1-20260101T000400Z-2",
    ]);
  });
});
