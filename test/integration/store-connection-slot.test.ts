import path from "node:path";
import kuzu from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PREPARED_PER_CONNECTION } from "../../core/store/kuzu/connection-slot.ts";
import { openConnection, type Database } from "../../core/store/kuzu/driver.ts";
import { createKuzuSession, type KuzuSession } from "../../core/store/kuzu/session.ts";
import { tempDir } from "../helpers/store-fixtures.ts";

// Kuzu 0.11.3 keeps every statement a connection prepared until the connection closes, so a
// session replaces its connection once it has prepared many, or after its statements were
// forgotten (DDL), and never inside a transaction.

let tmp: ReturnType<typeof tempDir>;
let db: Database;
let session: KuzuSession;

beforeEach(async () => {
  tmp = tempDir("cg-slot-");
  db = new kuzu.Database(path.join(tmp.dir, "db.kuzu"), 64 * 1024 * 1024);
  await db.init();
  session = createKuzuSession(await openConnection(db), tmp.dir, () => openConnection(db));
  await session.run("CREATE NODE TABLE T(id INT64, PRIMARY KEY(id))");
});

afterEach(async () => {
  await session.close();
  await db.close();
  tmp.cleanup();
});

describe("a session's connection", () => {
  it("is replaced after it has prepared its share of statements, and answers the same", async () => {
    for (let i = 0; i < PREPARED_PER_CONNECTION + 10; i++) {
      // Each text is new: each is prepared once.
      const rows = await session.run(`RETURN $x + ${i} AS v`, { x: 1 });
      expect(rows[0]?.v).toBe(1 + i);
    }
    expect(session.connectionsOpened()).toBe(2);
    // The statements of the old connection went with it: a text seen before is prepared again and runs.
    expect((await session.run("RETURN $x + 0 AS v", { x: 5 }))[0]?.v).toBe(5);
  });

  it("is replaced after its statements were forgotten, with what was written kept", async () => {
    await session.run("CREATE (:T {id: $id})", { id: 1 });
    session.resetPrepared();
    await session.run("CREATE (:T {id: $id})", { id: 2 });
    expect(session.connectionsOpened()).toBe(2);
    expect((await session.run("MATCH (t:T) RETURN count(*) AS n"))[0]?.n).toBe(2);
  });

  it("is kept until the transaction under way ends", async () => {
    await session.transaction(async () => {
      await session.run("CREATE (:T {id: $id})", { id: 1 });
      session.resetPrepared();
      await session.run("CREATE (:T {id: $id})", { id: 2 });
      expect(session.connectionsOpened()).toBe(1);
    });
    expect((await session.run("MATCH (t:T) RETURN count(*) AS n"))[0]?.n).toBe(2);
    expect(session.connectionsOpened()).toBe(2);
  });

  it("of a session given no way to reopen is kept", async () => {
    const own = createKuzuSession(await openConnection(db), tmp.dir);
    for (let i = 0; i < PREPARED_PER_CONNECTION + 1; i++) await own.run(`RETURN $x + ${i} AS v`, { x: 1 });
    own.resetPrepared();
    await own.run("RETURN $x AS v", { x: 1 });
    expect(own.connectionsOpened()).toBe(1);
    await own.close();
  });
});
