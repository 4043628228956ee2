// The Cypher gate's parser (../cypher-gate.ts): a grammar of read clauses only, from tokens to the
// parse tree (syntax.ts). Anything it does not know is refused with where it stopped.

import { GateRefusal } from "./refusal.ts";
import type { Clause, Expr, NodePattern, PathPattern, Projection, RelPattern, ReturnItem } from "./syntax.ts";
import { RESERVED, WRITE_WORDS, type Token } from "./tokens.ts";

export class Parser {
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
