import { z } from "zod";
import { ClauseGraphError } from "../model/errors.ts";
import type { Section } from "../model/section-types.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { MIN_ENTITY_NAME_LENGTH, type DerivedGraph, type EntityRecord, type TripletRecord } from "../model/graph-records.ts";

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

// Entity names are checked at the door: whatever an extractor (rules or a model) produced, a node
// without a name an auditor can read is never stored.
const entityName = z.string().refine((s) => s.trim().length >= MIN_ENTITY_NAME_LENGTH, `shorter than ${MIN_ENTITY_NAME_LENGTH} characters`);
const entitySchema = z.object({
  id: z.string().min(1),
  documentId: z.string().min(1),
  key: entityName,
  name: entityName,
  type: z.string(),
  party: z.string().optional(),
});
const tripletNamesSchema = z.object({
  id: z.string().min(1),
  subject: entityName,
  subjectId: z.string().min(1),
  object: z.union([z.literal(""), entityName]),
  recipient: z.union([z.literal(""), entityName]).optional(),
});

function issueText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "value"} ${i.message}`).join("; ");
}

/** Refuses entities and triplets whose names are empty or a single character, naming the first offender. */
export function validateEntities(what: string, entities: readonly EntityRecord[], triplets: readonly TripletRecord[], file?: string): void {
  for (const e of entities) {
    const parsed = entitySchema.safeParse(e);
    if (!parsed.success)
      throw new ClauseGraphError(
        "VALIDATION",
        `cannot store ${what}: entity ${JSON.stringify(e.id)} ${issueText(parsed.error)}`,
        file === undefined ? {} : { file },
      );
  }
  for (const t of triplets) {
    const parsed = tripletNamesSchema.safeParse(t);
    if (!parsed.success)
      throw new ClauseGraphError(
        "VALIDATION",
        `cannot store ${what}: triplet ${JSON.stringify(t.id)} ${issueText(parsed.error)}`,
        file === undefined ? {} : { file },
      );
  }
}

/** The derived graph of a document about to be stored with it. */
export function validateDerived(doc: DocumentRecord, derived: DerivedGraph): void {
  validateEntities(doc.fileName, derived.entities, derived.triplets, doc.file);
}
