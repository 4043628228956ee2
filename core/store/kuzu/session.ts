import { createConnectionSlot, type ConnectionSlot } from "./connection-slot.ts";
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
  /**
   * Forgets prepared statements: needed after DDL that drops and re-creates a table they use. The
   * connection that prepared them is replaced before the next statement (connection-slot.ts).
   */
  resetPrepared(): void;
  /** Connections this session has opened (a fresh one replaces a connection that is due). */
  connectionsOpened(): number;
  close(): Promise<void>;
}

/**
 * A session on `conn`. With `reopen`, the session replaces its connection when it is due (after
 * resetPrepared, or many statements prepared), so what Kuzu keeps per connection stays bounded.
 */
export function createKuzuSession(conn: Connection, dbPath: string, reopen?: () => Promise<Connection>): KuzuSession {
  const slot: ConnectionSlot = createConnectionSlot(conn, reopen);
  const prepared = new Map<string, PreparedStatement>();
  let preparedOn: Connection = conn;
  let inTransaction = false;

  async function connection(): Promise<Connection> {
    const current = await slot.connection(!inTransaction);
    if (current !== preparedOn) {
      prepared.clear();
      preparedOn = current;
    }
    return current;
  }

  async function prepare(cypher: string): Promise<PreparedStatement> {
    const cached = prepared.get(cypher);
    if (cached) return cached;
    const statement = await slot.prepare(cypher);
    if (!statement.isSuccess()) throw new Error(statement.getErrorMessage());
    prepared.set(cypher, statement);
    return statement;
  }

  async function run(cypher: string, params?: Params): Promise<Row[]> {
    try {
      const current = await connection();
      if (params === undefined) return await drain(await current.query(cypher));
      return await drain(await current.execute(await prepare(cypher), params));
    } catch (err) {
      throw toStoreError(err, dbPath, "running a query");
    }
  }

  async function transaction<T>(work: () => Promise<T>): Promise<T> {
    await run("BEGIN TRANSACTION");
    inTransaction = true;
    let value: T;
    try {
      value = await work();
    } catch (err) {
      // A statement that fails inside a transaction makes Kuzu roll it back by itself, and then
      // ROLLBACK reports "No active transaction": either way nothing of it remains.
      try {
        await drain(await preparedOn.query("ROLLBACK"));
      } catch {
        // already rolled back
      }
      inTransaction = false;
      throw err;
    }
    try {
      await run("COMMIT");
    } finally {
      inTransaction = false;
    }
    return value;
  }

  return {
    run,
    transaction,
    resetPrepared() {
      prepared.clear();
      slot.retire();
    },
    connectionsOpened: () => slot.opened(),
    close: () => slot.close(),
  };
}
