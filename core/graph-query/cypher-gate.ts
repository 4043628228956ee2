// Long file: the Cypher gate is one tokenizer, parser and checker whose parts only make sense together.
import type { QuerySchema } from "./query-schema.ts";

// Every Cypher statement a graph question runs passes this gate first: the engine's own
// templates as much as a model's. The statement is tokenized and parsed by a grammar that only
// has read clauses (MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP, LIMIT),
// checked against the live schema (node labels, relationship types and properties on a
// whitelist, variables bound before use, functions on a whitelist, variable-length paths
// bounded), given a LIMIT, and printed again from the parse tree: what runs is the printed
// statement, never the text that came in, so a comment, a second statement or a keyword hidden
// in odd spacing cannot reach the database. Anything the grammar does not know is refused with a
// reason. The database adds its own read-only transaction (store/kuzu/read-only-query.ts).

export class GateRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GateRefusal";
  }
}

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

// ---------------------------------------------------------------- tokens

type TokenKind = "ident" | "string" | "number" | "param" | "punct" | "end";
interface Token {
  kind: TokenKind;
  text: string;
  at: number;
}

/** Keywords that would change or leave the library: named in the refusal when seen. */
const WRITE_WORDS = new Set([
  "CREATE",
  "MERGE",
  "SET",
  "DELETE",
  "DETACH",
  "REMOVE",
  "DROP",
  "ALTER",
  "COPY",
  "LOAD",
  "INSTALL",
  "EXPORT",
  "IMPORT",
  "ATTACH",
  "USE",
  "CALL",
  "BEGIN",
  "COMMIT",
  "ROLLBACK",
  "CHECKPOINT",
  "FOREACH",
  "TRUNCATE",
  "RENAME",
]);
// Words Kuzu's parser reserves: a variable or alias spelled like one fails there ("AS end"), so the gate refuses it first.
const RESERVED = new Set([
  "END",
  "CASE",
  "WHEN",
  "THEN",
  "ELSE",
  "IN",
  "IS",
  "NOT",
  "AND",
  "OR",
  "XOR",
  "NULL",
  "TRUE",
  "FALSE",
  "MATCH",
  "RETURN",
  "WHERE",
  "WITH",
  "ORDER",
  "BY",
  "LIMIT",
  "SKIP",
  "AS",
  "DISTINCT",
  "COUNT",
  "CONTAINS",
  "STARTS",
  "ENDS",
  "EXISTS",
  "UNION",
  "ALL",
  "OPTIONAL",
  "UNWIND",
  "ASC",
  "DESC",
  "ASCENDING",
  "DESCENDING",
  "SHORTEST",
  "FROM",
  "TO",
  "ANY",
  "NONE",
  "SINGLE",
  "STRUCT",
  "KEY",
  "GROUP",
  "PROFILE",
  "EXPLAIN",
]);
const PUNCT = ["<>", "<=", ">=", "->", "<-", "..", "=~", "(", ")", "[", "]", "{", "}", ",", ".", ":", "|", "=", "<", ">", "+", "-", "*", "/", "%", "$", ";"];
const MAX_STATEMENT_CHARS = 4000;

function tokenize(source: string): Token[] {
  if (source.length > MAX_STATEMENT_CHARS) throw new GateRefusal(`the statement is longer than ${MAX_STATEMENT_CHARS} characters`);
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] ?? "";
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (source.startsWith("//", i) || source.startsWith("/*", i)) throw new GateRefusal("comments are not allowed");
    if (ch === "`") throw new GateRefusal("quoted names (`…`) are not allowed");
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      let value = "";
      for (; j < source.length; j++) {
        const c = source[j] ?? "";
        if (c === "\\") {
          const next = source[j + 1] ?? "";
          value += next === "n" ? "\n" : next === "t" ? "\t" : next;
          j++;
          continue;
        }
        if (c === ch) break;
        value += c;
      }
      if (j >= source.length) throw new GateRefusal("a string is not closed");
      tokens.push({ kind: "string", text: value, at: i });
      i = j + 1;
      continue;
    }
    // "1..3" is a range: the number stops before "..".
    const number = /^\d+(?:\.\d+)?/.exec(source.slice(i));
    if (number !== null) {
      tokens.push({ kind: "number", text: number[0], at: i });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (ident !== null) {
      tokens.push({ kind: "ident", text: ident[0], at: i });
      i += ident[0].length;
      continue;
    }
    if (ch === "$") {
      const name = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(source.slice(i));
      if (name === null) throw new GateRefusal("a $ must name a parameter");
      tokens.push({ kind: "param", text: name[1] ?? "", at: i });
      i += name[0].length;
      continue;
    }
    const p = PUNCT.find((x) => source.startsWith(x, i));
    if (p === undefined) throw new GateRefusal(`unexpected character ${JSON.stringify(ch)}`);
    tokens.push({ kind: "punct", text: p, at: i });
    i += p.length;
  }
  tokens.push({ kind: "end", text: "", at: source.length });
  return tokens;
}

// ---------------------------------------------------------------- syntax tree

type Expr =
  | { t: "lit"; value: string | number | boolean | null }
  | { t: "param"; name: string }
  | { t: "var"; name: string }
  | { t: "prop"; of: Expr; name: string }
  | { t: "index"; of: Expr; index: Expr }
  | { t: "list"; items: Expr[] }
  | { t: "call"; name: string; distinct: boolean; args: Expr[]; star: boolean }
  | { t: "unary"; op: "NOT" | "-"; arg: Expr }
  | { t: "binary"; op: string; left: Expr; right: Expr }
  | { t: "isnull"; arg: Expr; not: boolean };

interface NodePattern {
  variable?: string;
  labels: string[];
  props: Array<[string, Expr]>;
}
interface RelPattern {
  variable?: string;
  types: string[];
  direction: "out" | "in" | "both";
  hops?: { min: number; max: number };
  props: Array<[string, Expr]>;
}
interface PathPattern {
  variable?: string;
  nodes: NodePattern[];
  rels: RelPattern[];
}
interface ReturnItem {
  expr: Expr;
  alias?: string;
}
interface Projection {
  distinct: boolean;
  star: boolean;
  items: ReturnItem[];
  orderBy: Array<{ expr: Expr; desc: boolean }>;
  skip?: number;
  limit?: number;
}
type Clause =
  | { t: "match"; optional: boolean; patterns: PathPattern[]; where?: Expr }
  | { t: "unwind"; expr: Expr; as: string }
  | { t: "with"; projection: Projection; where?: Expr }
  | { t: "return"; projection: Projection };

// ---------------------------------------------------------------- parser

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)] ?? { kind: "end", text: "", at: 0 };
  }
  private next(): Token {
    const t = this.peek();
    this.i++;
    return t;
  }
  private isWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "ident" && t.text.toUpperCase() === word;
  }
  private isPunct(p: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "punct" && t.text === p;
  }
  private word(word: string): void {
    if (!this.isWord(word)) this.fail(`expected ${word}`);
    this.i++;
  }
  private punct(p: string): void {
    if (!this.isPunct(p)) this.fail(`expected "${p}"`);
    this.i++;
  }
  private name(): string {
    const t = this.next();
    if (t.kind !== "ident") this.fail("expected a name", t);
    if (WRITE_WORDS.has(t.text.toUpperCase())) this.fail(`${t.text.toUpperCase()} is not allowed`, t);
    return t.text;
  }
  /** A variable or alias: not a reserved word. */
  private variable(): string {
    const t = this.peek();
    const name = this.name();
    if (RESERVED.has(name.toUpperCase())) this.fail(`${name} is a reserved word and cannot name a value`, t);
    return name;
  }
  private int(): number {
    const t = this.next();
    if (t.kind !== "number" || !/^\d+$/.test(t.text)) this.fail("expected a whole number", t);
    return Number(t.text);
  }
  fail(message: string, at: Token = this.peek()): never {
    const word = at.kind === "ident" ? at.text.toUpperCase() : "";
    if (WRITE_WORDS.has(word)) throw new GateRefusal(`${word} is not allowed: graph questions only read the library`);
    throw new GateRefusal(`${message} at ${at.kind === "end" ? "the end" : JSON.stringify(at.text)}`);
  }

  statement(): Clause[] {
    const clauses: Clause[] = [];
    for (;;) {
      if (this.isWord("OPTIONAL") && this.isWord("MATCH", 1)) {
        this.i += 2;
        clauses.push(this.match(true));
      } else if (this.isWord("MATCH")) {
        this.i++;
        clauses.push(this.match(false));
      } else if (this.isWord("UNWIND")) {
        this.i++;
        const expr = this.expr();
        this.word("AS");
        clauses.push({ t: "unwind", expr, as: this.variable() });
      } else if (this.isWord("WITH")) {
        this.i++;
        const projection = this.projection();
        const where = this.isWord("WHERE") ? (this.i++, this.expr()) : undefined;
        clauses.push(where === undefined ? { t: "with", projection } : { t: "with", projection, where });
      } else if (this.isWord("RETURN")) {
        this.i++;
        clauses.push({ t: "return", projection: this.projection() });
        break;
      } else {
        this.fail("expected MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN");
      }
    }
    if (this.isPunct(";")) this.i++;
    if (this.peek().kind !== "end") this.fail("nothing may follow RETURN");
    return clauses;
  }

  private match(optional: boolean): Clause {
    const patterns = [this.path()];
    while (this.isPunct(",")) {
      this.i++;
      patterns.push(this.path());
    }
    const where = this.isWord("WHERE") ? (this.i++, this.expr()) : undefined;
    return where === undefined ? { t: "match", optional, patterns } : { t: "match", optional, patterns, where };
  }

  private path(): PathPattern {
    let variable: string | undefined;
    if (this.peek().kind === "ident" && this.isPunct("=", 1)) {
      variable = this.variable();
      this.i++;
    }
    const nodes = [this.node()];
    const rels: RelPattern[] = [];
    while (this.isPunct("-") || this.isPunct("<-")) {
      rels.push(this.rel());
      nodes.push(this.node());
    }
    return variable === undefined ? { nodes, rels } : { variable, nodes, rels };
  }

  private labels(): string[] {
    const labels: string[] = [];
    if (!this.isPunct(":")) return labels;
    this.i++;
    labels.push(this.name());
    while (this.isPunct("|")) {
      this.i++;
      if (this.isPunct(":")) this.i++;
      labels.push(this.name());
    }
    return labels;
  }

  private props(): Array<[string, Expr]> {
    const props: Array<[string, Expr]> = [];
    if (!this.isPunct("{")) return props;
    this.i++;
    if (!this.isPunct("}")) {
      for (;;) {
        const key = this.name();
        this.punct(":");
        props.push([key, this.expr()]);
        if (!this.isPunct(",")) break;
        this.i++;
      }
    }
    this.punct("}");
    return props;
  }

  private node(): NodePattern {
    this.punct("(");
    const variable = this.peek().kind === "ident" ? this.variable() : undefined;
    const labels = this.labels();
    const props = this.props();
    this.punct(")");
    return variable === undefined ? { labels, props } : { variable, labels, props };
  }

  private rel(): RelPattern {
    const incoming = this.isPunct("<-");
    this.i++;
    let variable: string | undefined;
    let types: string[] = [];
    let hops: { min: number; max: number } | undefined;
    let props: Array<[string, Expr]> = [];
    if (this.isPunct("[")) {
      this.i++;
      if (this.peek().kind === "ident") variable = this.variable();
      types = this.labels();
      if (this.isPunct("*")) {
        this.i++;
        const min = this.peek().kind === "number" ? this.int() : 1;
        let max = min;
        if (this.isPunct("..")) {
          this.i++;
          max = this.peek().kind === "number" ? this.int() : Number.POSITIVE_INFINITY;
        } else if (this.peek(-1).kind !== "number") {
          max = Number.POSITIVE_INFINITY;
        }
        hops = { min, max };
      }
      props = this.props();
      this.punct("]");
    }
    let outgoing = false;
    if (this.isPunct("->")) {
      outgoing = true;
      this.i++;
    } else {
      this.punct("-");
    }
    if (incoming && outgoing) this.fail("a relationship cannot point both ways");
    const direction = incoming ? "in" : outgoing ? "out" : "both";
    const rel: RelPattern = { types, direction, props };
    if (variable !== undefined) rel.variable = variable;
    if (hops !== undefined) rel.hops = hops;
    return rel;
  }

  private projection(): Projection {
    const distinct = this.isWord("DISTINCT") ? (this.i++, true) : false;
    let star = false;
    const items: ReturnItem[] = [];
    if (this.isPunct("*")) {
      this.i++;
      star = true;
    } else {
      for (;;) {
        const expr = this.expr();
        if (this.isWord("AS")) {
          this.i++;
          items.push({ expr, alias: this.variable() });
        } else items.push({ expr });
        if (!this.isPunct(",")) break;
        this.i++;
      }
    }
    const orderBy: Array<{ expr: Expr; desc: boolean }> = [];
    if (this.isWord("ORDER")) {
      this.i++;
      this.word("BY");
      for (;;) {
        const expr = this.expr();
        let desc = false;
        if (this.isWord("DESC") || this.isWord("DESCENDING")) {
          desc = true;
          this.i++;
        } else if (this.isWord("ASC") || this.isWord("ASCENDING")) this.i++;
        orderBy.push({ expr, desc });
        if (!this.isPunct(",")) break;
        this.i++;
      }
    }
    const projection: Projection = { distinct, star, items, orderBy };
    if (this.isWord("SKIP")) {
      this.i++;
      projection.skip = this.int();
    }
    if (this.isWord("LIMIT")) {
      this.i++;
      projection.limit = this.int();
    }
    return projection;
  }

  // Precedence: OR < XOR < AND < NOT < comparison < + - < * / % < unary minus < postfix.
  expr(): Expr {
    let left = this.xor();
    while (this.isWord("OR")) {
      this.i++;
      left = { t: "binary", op: "OR", left, right: this.xor() };
    }
    return left;
  }
  private xor(): Expr {
    let left = this.and();
    while (this.isWord("XOR")) {
      this.i++;
      left = { t: "binary", op: "XOR", left, right: this.and() };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isWord("AND")) {
      this.i++;
      left = { t: "binary", op: "AND", left, right: this.not() };
    }
    return left;
  }
  private not(): Expr {
    if (this.isWord("NOT")) {
      this.i++;
      return { t: "unary", op: "NOT", arg: this.not() };
    }
    return this.comparison();
  }
  private comparison(): Expr {
    let left = this.additive();
    for (;;) {
      const t = this.peek();
      if (t.kind === "punct" && ["=", "<>", "<", ">", "<=", ">="].includes(t.text)) {
        this.i++;
        left = { t: "binary", op: t.text, left, right: this.additive() };
      } else if (this.isWord("IN")) {
        this.i++;
        left = { t: "binary", op: "IN", left, right: this.additive() };
      } else if (this.isWord("CONTAINS")) {
        this.i++;
        left = { t: "binary", op: "CONTAINS", left, right: this.additive() };
      } else if (this.isWord("STARTS") && this.isWord("WITH", 1)) {
        this.i += 2;
        left = { t: "binary", op: "STARTS WITH", left, right: this.additive() };
      } else if (this.isWord("ENDS") && this.isWord("WITH", 1)) {
        this.i += 2;
        left = { t: "binary", op: "ENDS WITH", left, right: this.additive() };
      } else if (this.isWord("IS")) {
        this.i++;
        const not = this.isWord("NOT") ? (this.i++, true) : false;
        this.word("NULL");
        left = { t: "isnull", arg: left, not };
      } else if (t.kind === "punct" && t.text === "=~") {
        this.fail("regular expressions (=~) are not allowed");
      } else return left;
    }
  }
  private additive(): Expr {
    let left = this.multiplicative();
    while (this.isPunct("+") || this.isPunct("-")) {
      const op = this.next().text;
      left = { t: "binary", op, left, right: this.multiplicative() };
    }
    return left;
  }
  private multiplicative(): Expr {
    let left = this.unary();
    while (this.isPunct("*") || this.isPunct("/") || this.isPunct("%")) {
      const op = this.next().text;
      left = { t: "binary", op, left, right: this.unary() };
    }
    return left;
  }
  private unary(): Expr {
    if (this.isPunct("-")) {
      this.i++;
      return { t: "unary", op: "-", arg: this.unary() };
    }
    return this.postfix();
  }
  private postfix(): Expr {
    let e = this.atom();
    for (;;) {
      if (this.isPunct(".")) {
        this.i++;
        e = { t: "prop", of: e, name: this.name() };
      } else if (this.isPunct("[")) {
        this.i++;
        const index = this.expr();
        this.punct("]");
        e = { t: "index", of: e, index };
      } else return e;
    }
  }
  private atom(): Expr {
    const t = this.peek();
    if (t.kind === "string") {
      this.i++;
      return { t: "lit", value: t.text };
    }
    if (t.kind === "number") {
      this.i++;
      return { t: "lit", value: Number(t.text) };
    }
    if (t.kind === "param") {
      this.i++;
      return { t: "param", name: t.text };
    }
    if (this.isPunct("(")) {
      this.i++;
      const e = this.expr();
      this.punct(")");
      return e;
    }
    if (this.isPunct("[")) {
      this.i++;
      const items: Expr[] = [];
      if (!this.isPunct("]")) {
        for (;;) {
          items.push(this.expr());
          if (!this.isPunct(",")) break;
          this.i++;
        }
      }
      this.punct("]");
      return { t: "list", items };
    }
    if (t.kind === "ident") {
      const upper = t.text.toUpperCase();
      if (upper === "TRUE" || upper === "FALSE") {
        this.i++;
        return { t: "lit", value: upper === "TRUE" };
      }
      if (upper === "NULL") {
        this.i++;
        return { t: "lit", value: null };
      }
      const name = this.name();
      if (this.isPunct("(")) {
        this.i++;
        if (this.isPunct("*")) {
          this.i++;
          this.punct(")");
          return { t: "call", name, distinct: false, args: [], star: true };
        }
        const distinct = this.isWord("DISTINCT") ? (this.i++, true) : false;
        const args: Expr[] = [];
        if (!this.isPunct(")")) {
          for (;;) {
            args.push(this.expr());
            if (!this.isPunct(",")) break;
            this.i++;
          }
        }
        this.punct(")");
        return { t: "call", name, distinct, args, star: false };
      }
      return { t: "var", name };
    }
    return this.fail("expected a value");
  }
}

// ---------------------------------------------------------------- validation

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

interface Scope {
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

function validateExpr(e: Expr, scope: Scope, schema: QuerySchema, params: ReadonlySet<string>): void {
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

function bindPattern(p: PathPattern, scope: Scope, schema: QuerySchema, params: ReadonlySet<string>, maxHops: number): void {
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

function itemName(item: ReturnItem, index: number): string {
  if (item.alias !== undefined) return item.alias;
  if (item.expr.t === "var") return item.expr.name;
  if (item.expr.t === "prop" && item.expr.of.t === "var") return `${item.expr.of.name}.${item.expr.name}`;
  return `column${index + 1}`;
}

function validateProjection(proj: Projection, scope: Scope, schema: QuerySchema, params: ReadonlySet<string>, last: boolean): Scope {
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

// ---------------------------------------------------------------- printer

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

function printClause(c: Clause): string {
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

// ---------------------------------------------------------------- gate

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
