import type { CrossReference, CrossReferenceTarget } from "./cross-references.ts";
import { instrumentKey } from "./instruments.ts";

// Turns extracted references into graph edges. Resolution is by label: sections stop at the
// article / § / requirement level, so a pinpoint such as "(1)(e)" resolves to its containing unit
// and is carried on the edge for display.

export interface KnownDocument {
  title: string;
  /** Other names the document is cited by: "GDPR", "Regulation (EU) 2016/679", "45 CFR", "Codice". */
  aliases: string[];
  /** Section label → section id. Labels as the sectioner produces them ("Article 6", "§ 164.308"). */
  labels: Map<string, string>;
  /** Optional "Chapter IV > Section 2" → section id, for labels that repeat under different parents. */
  paths?: Map<string, string>;
}

export interface ResolveInput {
  references: CrossReference[];
  fromSectionId: string;
  fromDocumentId: string;
  /** Current section's label and path (ancestors then itself), used for relative references. */
  currentLabel: string;
  currentPath: string[];
  /** All known documents, including the current one. */
  documents: Map<string, KnownDocument>;
  /**
   * The act the current section amends ("Amendments to Regulation (EU) No 648/2012"): its
   * unqualified references ("Article 26 is amended as follows") are to that act, not to this one.
   */
  amends?: string;
}

export interface ReferenceEdge {
  fromSectionId: string;
  toSectionId: string | null;
  /** Target document when known (also for references to a whole external act). */
  toDocumentId?: string;
  raw: string;
  span: { start: number; end: number };
  /** Label looked up ("Article 6"), null when it could not be determined. */
  label: string | null;
  pinpoint?: string;
  /** Instrument as printed, for references into another act. */
  instrument?: string;
  resolved: boolean;
}

function documentForInstrument(instrument: string, docs: Map<string, KnownDocument>): string | null {
  const key = instrumentKey(instrument);
  for (const [id, doc] of docs) {
    if (doc.aliases.some((a) => instrumentKey(a) === key) || instrumentKey(doc.title) === key) return id;
  }
  return null;
}

/** The label a relative reference lands on: the current article/§ (paragraphs are not sections). */
function relativeBase(currentLabel: string, currentPath: string[]): string {
  return currentLabel !== "" ? currentLabel : (currentPath[currentPath.length - 1] ?? "");
}

function lookup(doc: KnownDocument, target: CrossReferenceTarget, label: string): string | null {
  if (target.within && target.within.length > 0 && doc.paths) {
    const byPath = doc.paths.get([...target.within, label].join(" > "));
    if (byPath) return byPath;
  }
  return doc.labels.get(label) ?? null;
}

/**
 * One edge per (reference, target); duplicates to the same section from the same span collapse.
 * Unresolvable targets are kept with resolved=false, except generated range interiors
 * ("§ 164.309" inside "164.308 through 164.316") that simply do not exist.
 */
export function resolveReferences(input: ResolveInput): ReferenceEdge[] {
  const edges: ReferenceEdge[] = [];
  const seen = new Set<string>();
  for (const ref of input.references) {
    for (const target of ref.targets) {
      const edge = resolveTarget(input, ref, target);
      if (!edge.resolved && target.rangeInterior) continue;
      const key = `${ref.start}|${edge.toSectionId ?? edge.label ?? ""}|${edge.toDocumentId ?? ""}|${edge.pinpoint ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push(edge);
    }
  }
  return edges;
}

function resolveTarget(input: ResolveInput, ref: CrossReference, target: CrossReferenceTarget): ReferenceEdge {
  const base: ReferenceEdge = {
    fromSectionId: input.fromSectionId,
    toSectionId: null,
    raw: ref.raw,
    span: { start: ref.start, end: ref.end },
    label: target.label,
    resolved: false,
  };
  let pinpoint = target.pinpoint;
  let docId: string | null = input.fromDocumentId;
  const external = target.external?.instrument ?? (target.label !== null ? input.amends : undefined);
  if (external !== undefined) {
    base.instrument = external;
    docId = documentForInstrument(external, input.documents);
  }
  let label = target.label;
  if (label === null && target.relative !== undefined) {
    // "paragraph 2" inside Article 33 → Article 33, pinpoint "paragraph 2 …".
    label = relativeBase(input.currentLabel, input.currentPath);
    pinpoint = [target.relative, target.pinpoint].filter((p) => p !== undefined && p !== "").join(", ");
    docId = external !== undefined ? docId : input.fromDocumentId;
  }
  base.label = label;
  if (pinpoint !== undefined && pinpoint !== "") base.pinpoint = pinpoint;
  if (docId === null) return base;
  base.toDocumentId = docId;
  const doc = input.documents.get(docId);
  if (!doc) return base;
  if (label === null) {
    // A citation of a whole act: resolved to the document, no section.
    base.resolved = external !== undefined;
    return base;
  }
  const sectionId = lookup(doc, target, label);
  if (sectionId !== null) {
    base.toSectionId = sectionId;
    base.resolved = true;
  }
  return base;
}
