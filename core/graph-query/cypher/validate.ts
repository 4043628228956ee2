// The Cypher gate's checker (../cypher-gate.ts): every label, relationship type, property,
// variable, parameter and function in the parse tree checked against the live schema.

import type { QuerySchema } from "../query-schema.ts";
import { GateRefusal } from "./refusal.ts";
import type { Expr, PathPattern, Projection, ReturnItem } from "./syntax.ts";

/** Functions a question may use: aggregates and string/list helpers. No id(), no file access. */
const FUNCTIONS = new Set([
  "count",
  "collect",
  "min",
  "max",
  "sum",
  "avg",
  "lower",
  "upper",
  "tolower",
  "toupper",
  "size",
  "length",
  "coalesce",
  "substring",
  "left",
  "right",
  "trim",
  "ltrim",
  "rtrim",
  "list_contains",
  "label",
  "starts_with",
  "ends_with",
  "contains",
  "tostring",
  "to_string",
  "abs",
  // RE2, linear in the text: no catastrophic backtracking whatever the pattern.
  "regexp_matches",
]);

export interface Scope {
  /** Variable → the labels it was bound with ([] when any). */
  vars: Map<string, { labels: string[]; kind: "node" | "rel" | "value" }>;
}

function checkLabels(labels: readonly string[], allowed: ReadonlyMap<string, ReadonlySet<string>>, what: string): void {
  for (const l of labels) if (!allowed.has(l)) throw new GateRefusal(`${what} ${l} is not one the library has`);
}

function propertyAllowed(schema: QuerySchema, labels: readonly string[], kind: "node" | "rel" | "value", name: string): boolean {
  const tables = kind === "rel" ? schema.relationships : schema.nodes;
  const candidates = labels.length > 0 ? labels : [...tables.keys()];
  return candidates.some((l) => tables.get(l)?.has(name) === true);
}

export function validateExpr(e: Expr, scope: Scope, schema: QuerySchema, params: ReadonlySet<string>): void {
  switch (e.t) {
    case "lit":
      return;
    case "param":
      if (!params.has(e.name)) throw new GateRefusal(`$${e.name} is not a parameter of this question`);
      return;
    case "var":
      if (!scope.vars.has(e.name)) throw new GateRefusal(`${e.name} is not defined`);
      return;
    case "prop": {
      validateExpr(e.of, scope, schema, params);
      if (e.of.t === "var") {
        const v = scope.vars.get(e.of.name);
        if (v !== undefined && v.kind !== "value" && !propertyAllowed(schema, v.labels, v.kind, e.name)) {
          throw new GateRefusal(`${e.of.name}.${e.name} is not a property the library has`);
        }
      }
      return;
    }
    case "index":
      validateExpr(e.of, scope, schema, params);
      validateExpr(e.index, scope, schema, params);
      return;
    case "list":
      for (const x of e.items) validateExpr(x, scope, schema, params);
      return;
    case "call":
      if (!FUNCTIONS.has(e.name.toLowerCase())) throw new GateRefusal(`the function ${e.name}() is not allowed`);
      for (const x of e.args) validateExpr(x, scope, schema, params);
      return;
    case "unary":
      validateExpr(e.arg, scope, schema, params);
      return;
    case "binary":
      validateExpr(e.left, scope, schema, params);
      validateExpr(e.right, scope, schema, params);
      return;
    case "isnull":
      validateExpr(e.arg, scope, schema, params);
      return;
  }
}

export function bindPattern(p: PathPattern, scope: Scope, schema: QuerySchema, params: ReadonlySet<string>, maxHops: number): void {
  for (const n of p.nodes) {
    checkLabels(n.labels, schema.nodes, "the node label");
    for (const [key, value] of n.props) {
      if (!propertyAllowed(schema, n.labels, "node", key)) throw new GateRefusal(`${key} is not a property the library has`);
      validateExpr(value, scope, schema, params);
    }
    if (n.variable !== undefined) {
      const seen = scope.vars.get(n.variable);
      if (seen !== undefined && seen.kind !== "node") throw new GateRefusal(`${n.variable} is used for two kinds of things`);
      scope.vars.set(n.variable, { labels: n.labels.length > 0 ? n.labels : (seen?.labels ?? []), kind: "node" });
    }
  }
  for (const r of p.rels) {
    checkLabels(r.types, schema.relationships, "the relationship type");
    if (r.hops !== undefined && (r.hops.max > maxHops || r.hops.min > r.hops.max))
      throw new GateRefusal(`paths longer than ${maxHops} relationships are not allowed`);
    for (const [key, value] of r.props) {
      if (!propertyAllowed(schema, r.types, "rel", key)) throw new GateRefusal(`${key} is not a property the library has`);
      validateExpr(value, scope, schema, params);
    }
    if (r.variable !== undefined) scope.vars.set(r.variable, { labels: r.types, kind: "rel" });
  }
  if (p.variable !== undefined) scope.vars.set(p.variable, { labels: [], kind: "value" });
}

export function itemName(item: ReturnItem, index: number): string {
  if (item.alias !== undefined) return item.alias;
  if (item.expr.t === "var") return item.expr.name;
  if (item.expr.t === "prop" && item.expr.of.t === "var") return `${item.expr.of.name}.${item.expr.name}`;
  return `column${index + 1}`;
}

export function validateProjection(proj: Projection, scope: Scope, schema: QuerySchema, params: ReadonlySet<string>, last: boolean): Scope {
  if (proj.star && !last) throw new GateRefusal("WITH * is not allowed");
  for (const item of proj.items) validateExpr(item.expr, scope, schema, params);
  const next: Scope = { vars: new Map() };
  if (proj.star) for (const [k, v] of scope.vars) next.vars.set(k, v);
  proj.items.forEach((item, i) => {
    const name = itemName(item, i);
    const fromVar = item.expr.t === "var" ? scope.vars.get(item.expr.name) : undefined;
    next.vars.set(name, fromVar ?? { labels: [], kind: "value" });
  });
  // ORDER BY sees the projection's names and, as in Cypher, the variables before it.
  const orderScope: Scope = { vars: new Map([...scope.vars, ...next.vars]) };
  for (const o of proj.orderBy) validateExpr(o.expr, orderScope, schema, params);
  return next;
}
