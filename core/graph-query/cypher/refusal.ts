// The one error the Cypher gate throws (../cypher-gate.ts): a statement it will not run, and why.

export class GateRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GateRefusal";
  }
}
