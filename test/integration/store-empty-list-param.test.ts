import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { PROJECT_DIR } from "../helpers/cli.ts";
import { tempDir } from "../helpers/store-fixtures.ts";

// Kuzu 0.11.3 kills the process (SIGSEGV) when a prepared statement gets an empty list parameter.
// Graph questions pass lists (section ids, documents, labels) that can be empty — a reopened answer
// citing a deleted document did — so the read-only connection turns an empty list into one that
// matches nothing (core/store/kuzu/read-only-query.ts). The canary shows the bug in bare Kuzu, in a
// child process; it fails, on purpose, the day an upgrade fixes it.

const CHILD = `
import kuzu from "kuzu";
const db = new kuzu.Database(process.argv[1], 64 * 1024 * 1024, true, false, 0, false);
await db.init();
const conn = new kuzu.Connection(db, 1);
await conn.init();
await conn.query("CREATE NODE TABLE T(id STRING PRIMARY KEY)");
const prepared = await conn.prepare("MATCH (t:T) WHERE t.id IN $ids RETURN t.id");
const result = await conn.execute(prepared, { ids: [] });
await result.getAll();
console.log("survived");
`;

describe("empty list parameters", () => {
  const tmp = tempDir("cg-empty-list-");
  let store: KuzuGraphStore;

  beforeAll(async () => {
    store = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu"), minFreeBytes: 0 });
    await store.open();
  });
  afterAll(async () => {
    await store.close();
    tmp.cleanup();
  });

  it("crash bare Kuzu (canary)", () => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, path.join(tmp.dir, "bare.kuzu")], {
      cwd: PROJECT_DIR,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stdout).not.toContain("survived");
    expect(run.signal).toBe("SIGSEGV");
  });

  it("are answered on the store's read-only connection as lists that match nothing", async () => {
    expect(await store.readOnlyQuery("MATCH (d:Document) WHERE d.id IN $ids RETURN d.id", { ids: [] }, { timeoutMs: 5000 })).toEqual([]);
    const all = await store.readOnlyQuery("MATCH (m:Meta) WHERE NOT m.key IN $ids RETURN count(m) AS n", { ids: [] }, { timeoutMs: 5000 });
    expect(Number(all[0]?.n)).toBeGreaterThan(0);
  });
});
