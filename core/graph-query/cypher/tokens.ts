// The Cypher gate's tokenizer (../cypher-gate.ts): the statement as names, strings, numbers,
// parameters and punctuation, with comments, quoted names and overlong statements refused here.

import { GateRefusal } from "./refusal.ts";

type TokenKind = "ident" | "string" | "number" | "param" | "punct" | "end";
export interface Token {
  kind: TokenKind;
  text: string;
  at: number;
}

/** Keywords that would change or leave the library: named in the refusal when seen. */
export const WRITE_WORDS = new Set([
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
export const RESERVED = new Set([
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

export function tokenize(source: string): Token[] {
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
