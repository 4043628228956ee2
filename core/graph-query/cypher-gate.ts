import type { QuerySchema } from "./query-schema.ts";
import { Parser } from "./cypher/parser.ts";
import { printClause } from "./cypher/print.ts";
import { GateRefusal } from "./cypher/refusal.ts";
import { tokenize } from "./cypher/tokens.ts";
import { bindPattern, itemName, validateExpr, validateProjection, type Scope } from "./cypher/validate.ts";

// Every Cypher statement a graph question runs passes this gate first: the engine's own
// templates as much as a model's. The statement is tokenized and parsed by a grammar that only
// has read clauses (MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP, LIMIT),
// checked against the live schema (node labels, relationship types and properties on a
// whitelist, variables bound before use, functions on a whitelist, variable-length paths
// bounded), given a LIMIT, and printed again from the parse tree: what runs is the printed
// statement, never the text that came in, so a comment, a second statement or a keyword hidden
// in odd spacing cannot reach the database. Anything the grammar does not know is refused with a
// reason. The database adds its own read-only transaction (store/kuzu/read-only-query.ts).

// The parts live in cypher/: tokens.ts, parser.ts (to the tree in syntax.ts), validate.ts, print.ts.

export { GateRefusal };

export interface GateOptions {
  /** Rows a statement may return at most; a larger or missing LIMIT becomes this. */
  maxRows: number;
  /** Names of the parameters the caller will pass ($name). */
  params: readonly string[];
  /** Longest variable-length relationship allowed (`*1..3`). */
  maxHops?: number;
}

export interface GatedQuery {
  /** The statement as printed from its parse tree, with the enforced LIMIT. */
  cypher: string;
  /** Returned column names, in order. */
  columns: string[];
  limit: number;
}

/**
 * The statement as the gate accepts it, or a GateRefusal saying why not. Read clauses only,
 * names from the schema, parameters from the caller, a LIMIT of at most `maxRows`.
 */
export function gateCypher(source: string, schema: QuerySchema, options: GateOptions): GatedQuery {
  const clauses = new Parser(tokenize(source)).statement();
  const params = new Set(options.params);
  const maxHops = options.maxHops ?? 3;
  let scope: Scope = { vars: new Map() };
  let columns: string[] = [];
  clauses.forEach((c, n) => {
    switch (c.t) {
      case "match":
        for (const p of c.patterns) bindPattern(p, scope, schema, params, maxHops);
        if (c.where !== undefined) validateExpr(c.where, scope, schema, params);
        return;
      case "unwind":
        validateExpr(c.expr, scope, schema, params);
        scope.vars.set(c.as, { labels: [], kind: "value" });
        return;
      case "with": {
        const next = validateProjection(c.projection, scope, schema, params, false);
        if (c.where !== undefined) validateExpr(c.where, next, schema, params);
        scope = next;
        return;
      }
      case "return": {
        if (n !== clauses.length - 1) throw new GateRefusal("RETURN must end the statement");
        if (c.projection.star) {
          columns = [...scope.vars.keys()];
        } else {
          validateProjection(c.projection, scope, schema, params, true);
          columns = c.projection.items.map(itemName);
        }
        c.projection.limit = Math.min(c.projection.limit ?? options.maxRows, options.maxRows);
        if (c.projection.skip !== undefined && c.projection.skip > 10_000) throw new GateRefusal("SKIP is too large");
        return;
      }
    }
  });
  const last = clauses[clauses.length - 1];
  if (last?.t !== "return") throw new GateRefusal("a statement must end with RETURN");
  return { cypher: clauses.map(printClause).join(" "), columns, limit: last.projection.limit ?? options.maxRows };
}
