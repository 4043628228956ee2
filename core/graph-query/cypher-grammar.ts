import type { QuerySchema } from "./query-schema.ts";

// The grammar a local model writes Cypher under (GBNF, compiled by llama.cpp): one MATCH of up to
// three nodes joined by relationships, an optional WHERE of up to three comparisons with literal
// values, a RETURN of up to four items, ORDER BY and a LIMIT. Node labels, relationship types and
// property names are alternatives taken from the live schema (query-schema.ts), so the model can
// only spell names the library has; whether a property belongs to its variable's label, and
// everything else, is the gate's to check (cypher-gate.ts). Nothing that writes can be produced.

function alt(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(" | ");
}

export function cypherGrammar(schema: QuerySchema): string {
  const labels = [...schema.nodes.keys()].sort();
  const relTypes = [...schema.relationships.keys()].sort();
  const properties = [...new Set([...schema.nodes.values()].flatMap((p) => [...p]))].sort();
  return [
    `root ::= "MATCH " pattern where? " RETURN " distinct? item (", " item){0,3} order? " LIMIT " limit`,
    `pattern ::= node (rel node){0,2}`,
    `node ::= "(" var ":" label ")"`,
    `rel ::= "-[:" reltype "]->" | "<-[:" reltype "]-"`,
    `var ::= [a-z]`,
    `label ::= ${alt(labels)}`,
    `reltype ::= ${alt(relTypes)}`,
    `prop ::= ${alt(properties)}`,
    `where ::= " WHERE " cond (" AND " cond){0,2}`,
    `cond ::= field " " op " " value | "lower(" field ") CONTAINS " text`,
    `field ::= var "." prop`,
    `op ::= "=" | "<>" | "CONTAINS" | "STARTS WITH"`,
    `value ::= text | number`,
    `text ::= "'" [a-zA-Z0-9 .,:;()/§-]{1,60} "'"`,
    `number ::= [0-9]{1,6}`,
    `distinct ::= "DISTINCT "`,
    `item ::= field | var | "count(" var ")"`,
    `order ::= " ORDER BY " (field | var) (" DESC")?`,
    `limit ::= [1-9] [0-9]?`,
  ].join("\n");
}

/** The schema as the prompt shows it: labels with their properties, relationships with their ends. */
export function schemaText(schema: QuerySchema): string {
  const nodes = [...schema.nodes].map(([label, props]) => `(:${label} {${[...props].join(", ")}})`);
  const rels = [...schema.ends].flatMap(([type, ends]) => ends.map((e) => `(:${e.from})-[:${type}]->(:${e.to})`));
  return `Nodes:\n${nodes.join("\n")}\nRelationships:\n${rels.join("\n")}`;
}
