import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, LIBRARY_MAX_BYTES, newDatabase, openConnection, type Connection, type Database } from "../../core/store/kuzu/driver.ts";

// A query whose result has more rows than a function may take arguments (a large library's
// vectors are read whole into the exact-scan mirror): drain returns every row.

describe("draining a large result", () => {
  let dir: string;
  let db: Database;
  let conn: Connection;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-drain-"));
    db = newDatabase(path.join(dir, "graph.kuzu"), { bufferPoolBytes: 64 * 2 ** 20, readOnly: false, maxBytes: LIBRARY_MAX_BYTES });
    await db.init();
    conn = await openConnection(db);
  });

  afterAll(async () => {
    await conn.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("returns 300,000 rows", { timeout: 120_000 }, async () => {
    const rows = await drain(await conn.query("UNWIND range(1, 300000) AS x RETURN x"));
    expect(rows).toHaveLength(300_000);
    expect(rows.at(-1)).toEqual({ x: 300_000 });
  });
});
