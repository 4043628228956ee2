import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isClauseGraphError } from "../../core/model/errors.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { tempDir } from "../helpers/store-fixtures.ts";

// Kuzu locks the database file per process: a second process (a CLI next to the app) must get
// DB_LOCKED naming the file, not a raw IO exception.
const HOLDER = `
import kuzu from "kuzu";
const db = new kuzu.Database(process.argv[1]);
const conn = new kuzu.Connection(db, 1);
await conn.init();
process.stdout.write("ready\\n");
process.stdin.resume();
process.stdin.on("end", async () => { await conn.close(); await db.close(); process.exit(0); });
`;

function holdDatabase(dbPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", HOLDER, dbPath], {
    cwd: process.cwd(),
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`holder exited early (${String(code)})`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve(child);
    });
  });
}

function release(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.stdin?.end();
  });
}

let tmp: ReturnType<typeof tempDir>;
let holder: ChildProcess | null = null;
let store: KuzuGraphStore | null = null;

beforeEach(() => {
  tmp = tempDir();
});

afterEach(async () => {
  if (holder) await release(holder);
  holder = null;
  await store?.close();
  store = null;
  tmp.cleanup();
});

describe("kuzu store: locking", () => {
  it("reports DB_LOCKED with the path when another process holds the database", async () => {
    const dbPath = path.join(tmp.dir, "graph.kuzu");
    const first = createKuzuStore({ dbPath });
    await first.open();
    await first.close();

    holder = await holdDatabase(dbPath);
    store = createKuzuStore({ dbPath });
    const err = await store.open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isClauseGraphError(err) && err.code).toBe("DB_LOCKED");
    expect(isClauseGraphError(err) && err.file).toBe(dbPath);
    expect(err instanceof Error && err.message).toContain(dbPath);

    // Once the other process lets go, the same store opens.
    await release(holder);
    holder = null;
    await store.open();
    expect(await store.stats()).toMatchObject({ documents: 0, sections: 0 });
  });
});
