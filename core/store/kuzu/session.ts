import { drain, type Connection, type Params, type PreparedStatement, type Row } from "./driver.ts";
import { toStoreError } from "./store-errors.ts";

export type { Params, Row };

/** One Kuzu connection, used strictly one statement at a time. */
export interface KuzuSession {
  /** Runs one statement; with params it goes through a cached prepared statement. */
  run(cypher: string, params?: Params): Promise<Row[]>;
  /**
   * Runs `work` inside BEGIN TRANSACTION … COMMIT; on any failure rolls back and rethrows.
   * Kuzu allows one transaction per connection, and DDL of FTS indexes is refused inside one.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Forgets prepared statements: needed after DDL that drops and re-creates a table they use. */
  resetPrepared(): void;
}

export function createKuzuSession(conn: Connection, dbPath: string): KuzuSession {
  const prepared = new Map<string, PreparedStatement>();

  async function prepare(cypher: string): Promise<PreparedStatement> {
    const cached = prepared.get(cypher);
    if (cached) return cached;
    const statement = await conn.prepare(cypher);
    if (!statement.isSuccess()) throw new Error(statement.getErrorMessage());
    prepared.set(cypher, statement);
    return statement;
  }

  async function run(cypher: string, params?: Params): Promise<Row[]> {
    try {
      if (params === undefined) return await drain(await conn.query(cypher));
      return await drain(await conn.execute(await prepare(cypher), params));
    } catch (err) {
      throw toStoreError(err, dbPath, "running a query");
    }
  }

  async function transaction<T>(work: () => Promise<T>): Promise<T> {
    await run("BEGIN TRANSACTION");
    let value: T;
    try {
      value = await work();
    } catch (err) {
      // A statement that fails inside a transaction makes Kuzu roll it back by itself, and then
      // ROLLBACK reports "No active transaction": either way nothing of it remains.
      try {
        await drain(await conn.query("ROLLBACK"));
      } catch {
        // already rolled back
      }
      throw err;
    }
    await run("COMMIT");
    return value;
  }

  return { run, transaction, resetPrepared: () => prepared.clear() };
}
