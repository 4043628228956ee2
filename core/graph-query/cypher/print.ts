// The Cypher gate's printer (../cypher-gate.ts): the statement that runs, printed again from the
// parse tree, never the text that came in.

import type { Clause, Expr, NodePattern, PathPattern, Projection, RelPattern } from "./syntax.ts";

function quote(s: string): string {
  return `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\t/g, "\\t")}'`;
}

const PRECEDENCE: Record<string, number> = {
  OR: 1,
  XOR: 2,
  AND: 3,
  "=": 5,
  "<>": 5,
  "<": 5,
  ">": 5,
  "<=": 5,
  ">=": 5,
  IN: 5,
  CONTAINS: 5,
  "STARTS WITH": 5,
  "ENDS WITH": 5,
  "+": 6,
  "-": 6,
  "*": 7,
  "/": 7,
  "%": 7,
};

function printExpr(e: Expr): string {
  switch (e.t) {
    case "lit":
      return e.value === null
        ? "NULL"
        : typeof e.value === "string"
          ? quote(e.value)
          : typeof e.value === "boolean"
            ? e.value
              ? "true"
              : "false"
            : String(e.value);
    case "param":
      return `$${e.name}`;
    case "var":
      return e.name;
    case "prop":
      return `${printExpr(e.of)}.${e.name}`;
    case "index":
      return `${printExpr(e.of)}[${printExpr(e.index)}]`;
    case "list":
      return `[${e.items.map(printExpr).join(", ")}]`;
    case "call":
      return e.star ? `${e.name}(*)` : `${e.name}(${e.distinct ? "DISTINCT " : ""}${e.args.map(printExpr).join(", ")})`;
    case "unary":
      return e.op === "NOT" ? `NOT (${printExpr(e.arg)})` : `-(${printExpr(e.arg)})`;
    case "isnull":
      return `(${printExpr(e.arg)}) IS ${e.not ? "NOT " : ""}NULL`;
    case "binary": {
      const p = PRECEDENCE[e.op] ?? 0;
      const wrap = (x: Expr): string => (x.t === "binary" && (PRECEDENCE[x.op] ?? 0) <= p ? `(${printExpr(x)})` : printExpr(x));
      return `${wrap(e.left)} ${e.op} ${wrap(e.right)}`;
    }
  }
}

function printProps(props: Array<[string, Expr]>): string {
  return props.length === 0 ? "" : ` {${props.map(([k, v]) => `${k}: ${printExpr(v)}`).join(", ")}}`;
}

function printNode(n: NodePattern): string {
  return `(${n.variable ?? ""}${n.labels.length > 0 ? `:${n.labels.join("|")}` : ""}${printProps(n.props)})`;
}

function printRel(r: RelPattern): string {
  const hops = r.hops === undefined ? "" : `*${r.hops.min}..${r.hops.max}`;
  const inner = `[${r.variable ?? ""}${r.types.length > 0 ? `:${r.types.join("|")}` : ""}${hops}${printProps(r.props)}]`;
  return r.direction === "out" ? `-${inner}->` : r.direction === "in" ? `<-${inner}-` : `-${inner}-`;
}

function printPath(p: PathPattern): string {
  let s = p.variable === undefined ? "" : `${p.variable} = `;
  p.nodes.forEach((n, i) => {
    if (i > 0) s += printRel(p.rels[i - 1] as RelPattern);
    s += printNode(n);
  });
  return s;
}

function printProjection(p: Projection): string {
  let s = `${p.distinct ? "DISTINCT " : ""}${p.star ? "*" : p.items.map((i) => `${printExpr(i.expr)}${i.alias === undefined ? "" : ` AS ${i.alias}`}`).join(", ")}`;
  if (p.orderBy.length > 0) s += ` ORDER BY ${p.orderBy.map((o) => `${printExpr(o.expr)}${o.desc ? " DESC" : ""}`).join(", ")}`;
  if (p.skip !== undefined) s += ` SKIP ${p.skip}`;
  if (p.limit !== undefined) s += ` LIMIT ${p.limit}`;
  return s;
}

export function printClause(c: Clause): string {
  switch (c.t) {
    case "match":
      return `${c.optional ? "OPTIONAL " : ""}MATCH ${c.patterns.map(printPath).join(", ")}${c.where === undefined ? "" : ` WHERE ${printExpr(c.where)}`}`;
    case "unwind":
      return `UNWIND ${printExpr(c.expr)} AS ${c.as}`;
    case "with":
      return `WITH ${printProjection(c.projection)}${c.where === undefined ? "" : ` WHERE ${printExpr(c.where)}`}`;
    case "return":
      return `RETURN ${printProjection(c.projection)}`;
  }
}
