import { createConnectionSlot } from "./connection-slot.ts";
import { drain, openConnection, type Database, type KuzuValue } from "./driver.ts";
import { ClauseGraphError } from "../../model/errors.ts";
import type { GraphValue, LiveGraphSchema, ReadOnlyRow } from "../../model/store-records.ts";
import type { KuzuSession, Params } from "./session.ts";

// Graph questions (core/graph-query/) run Cypher the user's words shaped, and with a model loaded
// Cypher a model wrote. Whatever the query gate let through, it runs here: on a connection of its
// own, inside BEGIN TRANSACTION READ ONLY (Kuzu refuses every write and DDL in it: "Can not
// execute a write query inside a read-only transaction"), under a timeout Kuzu enforces by
// interrupting the query. The transaction does not stop COPY … TO or LOAD FROM (measured: a COPY
// TO wrote a file from inside one), which is why the gate refuses those before anything runs.

export interface ReadOnlyConnection {
  run(cypher: string, params: Params, timeoutMs: number): Promise<ReadOnlyRow[]>;
  close(): Promise<void>;
}

/** Kuzu's values as plain data: nodes, relationships and paths become maps of their fields. */
function toGraphValue(v: KuzuValue): GraphValue {
  if (v === null || typeof v !== "object" || v instanceof Date) return v;
  if (Array.isArray(v)) return v.map(toGraphValue);
  const out: { [key: string]: GraphValue } = {};
  for (const [k, x] of Object.entries(v as Record<string, KuzuValue>)) out[k] = toGraphValue(x);
  return out;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** No id, label, name or text the library holds contains it. */
const NOTHING = "\u0000";

/**
 * Kuzu 0.11 kills the process (SIGSEGV) when a prepared statement gets an empty list parameter
 * (measured: `WHERE s.id IN $ids` with ids = []). An empty list becomes a list of one string no
 * stored value equals, so `x IN $list` stays false and `NOT x IN $list` true.
 */
function nonEmptyLists(params: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(params)) out[k] = Array.isArray(v) && v.length === 0 ? [NOTHING] : v;
  return out;
}

export async function createReadOnlyConnection(db: Database, dbPath: string): Promise<ReadOnlyConnection> {
  // Each graph question prepares its own statement: the slot replaces the connection before Kuzu's
  // copies of them pile up (connection-slot.ts).
  const slot = createConnectionSlot(await openConnection(db), () => openConnection(db));
  return {
    async run(cypher, raw, timeoutMs) {
      const params = nonEmptyLists(raw);
      const conn = await slot.connection(true);
      const query = async (statement: string): Promise<void> => {
        await drain(await conn.query(statement));
      };
      conn.setQueryTimeout(Math.max(1, Math.floor(timeoutMs)));
      await query("BEGIN TRANSACTION READ ONLY");
      try {
        const prepared = await slot.prepare(cypher);
        if (!prepared.isSuccess()) throw new Error(prepared.getErrorMessage());
        const rows = await drain(await conn.execute(prepared, params));
        await query("COMMIT");
        return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toGraphValue(v)])));
      } catch (err) {
        // A failed statement ends Kuzu's transaction by itself; ROLLBACK then says there is none.
        await query("ROLLBACK").catch(() => undefined);
        const text = message(err);
        if (/interrupted/i.test(text)) {
          throw new ClauseGraphError("DB_ERROR", `the graph query took longer than ${Math.round(timeoutMs)} ms and was stopped`, { file: dbPath, cause: err });
        }
        if (/read-only transaction/i.test(text)) {
          throw new ClauseGraphError("FORBIDDEN", "the graph query tried to change the library and was refused", { file: dbPath, cause: err });
        }
        throw new ClauseGraphError("VALIDATION", `the graph query failed: ${text}`, { file: dbPath, cause: err });
      }
    },
    async close() {
      await slot.close();
    },
  };
}

function text(v: KuzuValue | undefined): string {
  return typeof v === "string" ? v : String(v ?? "");
}

/** The node and relationship tables with their properties, as the catalog has them. */
export async function readLiveSchema(session: KuzuSession): Promise<LiveGraphSchema> {
  const schema: LiveGraphSchema = { nodes: [], relationships: [] };
  for (const t of await session.run("CALL show_tables() RETURN name, type")) {
    const name = text(t.name);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    const info = await session.run(`CALL table_info('${name}') RETURN name, type`);
    const properties = info.map((p) => ({ name: text(p.name), type: text(p.type) }));
    if (text(t.type) === "NODE") schema.nodes.push({ name, properties });
    else if (text(t.type) === "REL") {
      const ends = await session.run(`CALL show_connection('${name}') RETURN *`);
      const pairs = ends.map((e) => ({ from: text(e["source table name"]), to: text(e["destination table name"]) }));
      schema.relationships.push({ name, properties, ends: pairs });
    }
  }
  schema.nodes.sort((a, b) => (a.name < b.name ? -1 : 1));
  schema.relationships.sort((a, b) => (a.name < b.name ? -1 : 1));
  return schema;
}
