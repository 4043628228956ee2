import { ClauseGraphError } from "../errors.ts";
import type { Section } from "../structure/types.ts";
import type { DocumentRecord } from "./graph-store.ts";

// Checked before any write, so a malformed batch is a clear VALIDATION error instead of a Kuzu
// primary-key message or, worse, silently missing PART_OF edges.
export function validateInsert(doc: DocumentRecord, sections: readonly Section[]): void {
  const fail = (message: string): never => {
    throw new ClauseGraphError("VALIDATION", `cannot store ${doc.fileName}: ${message}`, { file: doc.file });
  };
  if (doc.id === "") fail("the document has no id");
  const ids = new Set<string>();
  for (const s of sections) {
    if (s.documentId !== doc.id) fail(`section ${s.id} belongs to document ${s.documentId}, not ${doc.id}`);
    if (ids.has(s.id)) fail(`two sections share the id ${s.id}`);
    ids.add(s.id);
  }
  for (const s of sections) {
    if (s.parentId !== null && !ids.has(s.parentId)) fail(`section ${s.id} has an unknown parent ${s.parentId}`);
  }
}
