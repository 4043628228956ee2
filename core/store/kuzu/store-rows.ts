import type { KuzuValue } from "./driver.ts";
import { z } from "zod";
import { ClauseGraphError } from "../../model/errors.ts";
import type { SourceFormat } from "../../model/ingest-types.ts";
import { ocrSummarySchema, type OcrSummary } from "../../model/ocr-types.ts";
import { SECTION_KINDS, type Section, type SectionKind } from "../../model/section-types.ts";
import type { DocumentRecord } from "../../model/store-records.ts";
import { numberTerms } from "../search/fts-query.ts";
import type { Params } from "./session.ts";
import type { CrossReferenceRecord, DeadlineRecord, EntityRecord, Modality, TermRecord, TripletRecord } from "../../model/graph-records.ts";

// Conversions between the shared types and Kuzu rows. Reads narrow every property: a row that
// does not fit means a damaged or foreign database and surfaces as DB_ERROR, not as a wrong type.

const FORMATS: readonly SourceFormat[] = ["pdf", "text", "markdown"];

const spansSchema = z.array(
  z.object({
    start: z.number(),
    end: z.number(),
    page: z.number(),
    box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
    label: z.string().optional(),
    ocr: z.number().optional(),
  }),
);

type Props = Record<string, KuzuValue>;

function isProps(value: KuzuValue | undefined): value is Props {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function bad(what: string): ClauseGraphError {
  return new ClauseGraphError("DB_ERROR", `unexpected data in the database: ${what}`);
}

function str(props: Props, key: string): string {
  const v = props[key];
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  throw bad(`${key} is not text`);
}

function int(props: Props, key: string): number {
  const v = props[key];
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v === null || v === undefined) return 0;
  throw bad(`${key} is not a number`);
}

function stringList(props: Props, key: string): string[] {
  const v = props[key];
  if (v === null || v === undefined) return [];
  if (Array.isArray(v) && v.every((x): x is string => typeof x === "string")) return v;
  throw bad(`${key} is not a list of text`);
}

export function toProps(value: KuzuValue | undefined, what: string): Props {
  if (!isProps(value)) throw bad(`${what} is not a node`);
  return value;
}

export function documentFromNode(value: KuzuValue | undefined): DocumentRecord {
  const p = toProps(value, "document");
  const format = str(p, "format");
  return {
    id: str(p, "id"),
    sha256: str(p, "sha256"),
    file: str(p, "file"),
    fileName: str(p, "fileName"),
    title: str(p, "title"),
    format: FORMATS.find((f) => f === format) ?? "text",
    language: str(p, "language"),
    pages: int(p, "pages"),
    bytes: int(p, "bytes"),
    sections: int(p, "sections"),
    importedAt: str(p, "importedAt"),
    // Present only when there are any, so a document without names reads as it was written.
    ...nonEmpty("aliases", stringList(p, "aliases")),
    ...nonEmpty("userAliases", stringList(p, "userAliases")),
    ...nonEmpty("hiddenAliases", stringList(p, "hiddenAliases")),
    ...ocrSummary(str(p, "ocr"), str(p, "id")),
  };
}

/** The Document.ocr column (schema v6): "" when nothing was OCR'd, else the summary's JSON. */
function ocrSummary(json: string, id: string): { ocr?: OcrSummary } {
  if (json === "") return {};
  try {
    return { ocr: ocrSummarySchema.parse(JSON.parse(json)) };
  } catch (err) {
    throw new ClauseGraphError("DB_ERROR", `unexpected data in the database: OCR summary of ${id}`, { cause: err });
  }
}

function nonEmpty<K extends string>(key: K, list: string[]): Partial<Record<K, string[]>> {
  return list.length > 0 ? ({ [key]: list } as Partial<Record<K, string[]>>) : {};
}

export function sectionFromNode(value: KuzuValue | undefined): Section {
  const p = toProps(value, "section");
  const kind = str(p, "kind");
  const parentId = p.parentId;
  let spans: Section["spans"];
  try {
    spans = spansSchema.parse(JSON.parse(str(p, "spans") || "[]"));
  } catch (err) {
    throw new ClauseGraphError("DB_ERROR", `unexpected data in the database: spans of ${str(p, "id")}`, { cause: err });
  }
  return {
    id: str(p, "id"),
    documentId: str(p, "documentId"),
    ordinal: int(p, "ordinal"),
    kind: SECTION_KINDS.find((k): k is SectionKind => k === kind) ?? "chunk",
    label: str(p, "label"),
    heading: str(p, "heading"),
    path: stringList(p, "path"),
    parentId: typeof parentId === "string" ? parentId : null,
    level: int(p, "level"),
    text: str(p, "text"),
    pageStart: int(p, "pageStart"),
    pageEnd: int(p, "pageEnd"),
    spans,
  };
}

export function documentParams(doc: DocumentRecord): Params {
  return {
    id: doc.id,
    sha256: doc.sha256,
    file: doc.file,
    fileName: doc.fileName,
    title: doc.title,
    format: doc.format,
    language: doc.language,
    pages: doc.pages,
    bytes: doc.bytes,
    sections: doc.sections,
    importedAt: doc.importedAt,
  };
}

/**
 * A section as an UNWIND row. `path` is left out: Kuzu infers a list's type from its values and
 * types an empty `[]` as STRING, which then fails to bind to STRING[] — paths are written by
 * a second statement over the sections that have one.
 */
export function sectionRow(s: Section): Params {
  return {
    id: s.id,
    documentId: s.documentId,
    ordinal: s.ordinal,
    kind: s.kind,
    label: s.label,
    heading: s.heading,
    parentId: s.parentId,
    level: s.level,
    text: s.text,
    pageStart: s.pageStart,
    pageEnd: s.pageEnd,
    spans: JSON.stringify(s.spans),
    numberTerms: numberTerms(`${s.label} ${s.heading} ${s.text}`),
  };
}

/**
 * A citation as an UNWIND row. Absent strings are "" rather than null: Kuzu types the fields of
 * a batch from its values, and a batch where a field is null throughout cannot bind to STRING.
 */
export function referenceRow(r: CrossReferenceRecord): Params {
  return {
    id: r.id,
    documentId: r.documentId,
    fromSectionId: r.fromSectionId,
    toSectionId: r.toSectionId ?? "",
    toDocumentId: r.toDocumentId ?? "",
    raw: r.raw,
    label: r.label ?? "",
    pinpoint: r.pinpoint ?? "",
    instrument: r.instrument ?? "",
    spanStart: r.start,
    spanEnd: r.end,
    resolved: r.resolved,
  };
}

export function termRow(t: TermRecord): Params {
  return {
    id: t.id,
    documentId: t.documentId,
    term: t.term,
    normalizedTerm: t.normalizedTerm,
    definition: t.definition,
    sectionId: t.sectionId,
    spanStart: t.start,
    spanEnd: t.end,
  };
}

function orNull(value: string): string | null {
  return value === "" ? null : value;
}

export function referenceFromNode(value: KuzuValue | undefined): CrossReferenceRecord {
  const p = toProps(value, "reference");
  return {
    id: str(p, "id"),
    documentId: str(p, "documentId"),
    fromSectionId: str(p, "fromSectionId"),
    toSectionId: orNull(str(p, "toSectionId")),
    toDocumentId: orNull(str(p, "toDocumentId")),
    raw: str(p, "raw"),
    label: orNull(str(p, "label")),
    pinpoint: orNull(str(p, "pinpoint")),
    instrument: orNull(str(p, "instrument")),
    start: int(p, "spanStart"),
    end: int(p, "spanEnd"),
    resolved: p.resolved === true,
  };
}

export function termFromNode(value: KuzuValue | undefined, mentionedIn: string[]): TermRecord {
  const p = toProps(value, "term");
  return {
    id: str(p, "id"),
    documentId: str(p, "documentId"),
    term: str(p, "term"),
    normalizedTerm: str(p, "normalizedTerm"),
    definition: str(p, "definition"),
    sectionId: str(p, "sectionId"),
    start: int(p, "spanStart"),
    end: int(p, "spanEnd"),
    mentionedIn,
  };
}

export function entityRow(e: EntityRecord): Params {
  return { id: e.id, documentId: e.documentId, key: e.key, name: e.name, type: e.type, party: e.party ?? "" };
}

export function deadlineRow(d: DeadlineRecord): Params {
  return { id: d.id, documentId: d.documentId, sectionId: d.sectionId, text: d.text, sentence: d.sentence, spanStart: d.start, spanEnd: d.end };
}

export function tripletRow(t: TripletRecord): Params {
  return {
    id: t.id,
    documentId: t.documentId,
    sectionId: t.sectionId,
    subjectId: t.subjectId,
    subject: t.subject,
    predicate: t.predicate,
    objectId: t.objectId,
    object: t.object,
    recipientId: t.recipientId ?? "",
    recipient: t.recipient ?? "",
    modality: t.modality,
    deadline: t.deadline ?? "",
    source: t.source,
    confidence: t.confidence,
    spanStart: t.start,
    spanEnd: t.end,
    evidence: t.evidence,
  };
}

const MODALITIES: readonly Modality[] = ["must", "must not", "may", "should", "should not", "fact"];

function num(props: Props, key: string): number {
  const v = props[key];
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v === null || v === undefined) return 0;
  throw bad(`${key} is not a number`);
}

export function tripletFromNode(value: KuzuValue | undefined): TripletRecord {
  const p = toProps(value, "triplet");
  const modality = str(p, "modality");
  // Recipients exist from schema v8 on; "" (or a row written before) reads as none.
  const recipient = str(p, "recipient");
  return {
    id: str(p, "id"),
    documentId: str(p, "documentId"),
    sectionId: str(p, "sectionId"),
    subjectId: str(p, "subjectId"),
    subject: str(p, "subject"),
    predicate: str(p, "predicate"),
    objectId: str(p, "objectId"),
    object: str(p, "object"),
    ...(recipient === "" ? {} : { recipientId: str(p, "recipientId"), recipient }),
    modality: MODALITIES.find((m) => m === modality) ?? "fact",
    deadline: orNull(str(p, "deadline")),
    source: str(p, "source") === "llm" ? "llm" : "rule",
    confidence: num(p, "confidence"),
    start: int(p, "spanStart"),
    end: int(p, "spanEnd"),
    evidence: str(p, "evidence"),
  };
}

/**
 * A vector as a Kuzu list literal in a string: passing the floats as a JS array is an order of
 * magnitude slower per row in the binding than a CAST from a string.
 */
export function vectorLiteral(vector: Float32Array): string {
  let out = "[";
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] ?? 0;
    // Below 1e-6 toPrecision switches to exponent notation; such components do not matter.
    out += (i === 0 ? "" : ",") + (Number.isFinite(x) && Math.abs(x) >= 1e-6 ? x.toPrecision(7) : "0");
  }
  return `${out}]`;
}
