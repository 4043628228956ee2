// The Cypher gate's parse tree (../cypher-gate.ts): what the parser builds, the checker walks and
// the printer prints. Read clauses only: there is no node for anything that writes.

export type Expr =
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

export interface NodePattern {
  variable?: string;
  labels: string[];
  props: Array<[string, Expr]>;
}
export interface RelPattern {
  variable?: string;
  types: string[];
  direction: "out" | "in" | "both";
  hops?: { min: number; max: number };
  props: Array<[string, Expr]>;
}
export interface PathPattern {
  variable?: string;
  nodes: NodePattern[];
  rels: RelPattern[];
}
export interface ReturnItem {
  expr: Expr;
  alias?: string;
}
export interface Projection {
  distinct: boolean;
  star: boolean;
  items: ReturnItem[];
  orderBy: Array<{ expr: Expr; desc: boolean }>;
  skip?: number;
  limit?: number;
}
export type Clause =
  | { t: "match"; optional: boolean; patterns: PathPattern[]; where?: Expr }
  | { t: "unwind"; expr: Expr; as: string }
  | { t: "with"; projection: Projection; where?: Expr }
  | { t: "return"; projection: Projection };
