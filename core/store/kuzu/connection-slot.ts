import type { Connection, PreparedStatement } from "./driver.ts";

// Kuzu 0.11.3 keeps every statement a connection has prepared until that connection closes: its
// ClientContext adds each one to a map it never removes from (the statement's handle going away
// frees nothing). A connection that keeps preparing therefore keeps growing: the store forgets its
// prepared statements after DDL and prepares them again, and a graph question prepares its own
// statement, so a long session grew with every import and every graph question. A slot holds one
// connection and replaces it with a fresh one, between two statements, once it has prepared
// PREPARED_PER_CONNECTION statements or its statements were dropped; closing the old connection
// gives back what it kept.

/** Statements one connection may prepare before it is replaced. */
export const PREPARED_PER_CONNECTION = 256;

export interface ConnectionSlot {
  /**
   * The connection for the next statement. With `renew`, a connection that is due is first
   * replaced (and closed); callers pass it only between statements and outside a transaction.
   */
  connection(renew: boolean): Promise<Connection>;
  /** Prepares `cypher` on the current connection, counted against it. */
  prepare(cypher: string): Promise<PreparedStatement>;
  /** The current connection's statements are no longer used: it is replaced at the next renewal. */
  retire(): void;
  /** How many connections the slot has opened, the first included. */
  opened(): number;
  close(): Promise<void>;
}

/**
 * A slot around `first`. Without `reopen` the connection is never replaced (a caller that owns
 * its connection, e.g. a test writing a library by hand).
 */
export function createConnectionSlot(first: Connection, reopen?: () => Promise<Connection>): ConnectionSlot {
  let conn = first;
  let prepares = 0;
  let retired = false;
  let opened = 1;
  return {
    async connection(renew) {
      if (renew && reopen && (retired || prepares >= PREPARED_PER_CONNECTION)) {
        const old = conn;
        conn = await reopen();
        opened += 1;
        prepares = 0;
        retired = false;
        await old.close();
      }
      return conn;
    },
    async prepare(cypher) {
      prepares += 1;
      return conn.prepare(cypher);
    },
    retire: () => void (retired = true),
    opened: () => opened,
    close: () => conn.close(),
  };
}
