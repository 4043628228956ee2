import { provisionLabel } from "../structure/part-label.ts";
import type { KnownDocument } from "../extract/resolve-references.ts";
import { buildCrossReferences, labelIndex } from "../graph/cross-reference-graph.ts";
import { documentAliases } from "../graph/document-aliases.ts";
import { documentKind } from "../graph/document-kind.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import type { CrossReferenceRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import type { CitationLink } from "./crosswalk-features.ts";

// Explicit citations between the two sides: the strongest evidence two provisions belong
// together. NIST SP 800-66 names the HIPAA standard each of its sections explains in the
// heading ("Security Management Process (§ 164.308(a)(1))"), where the import does not look for
// citations (it reads section text), so headings are read here, with the same finder and
// resolver. Citations in the text were resolved at import (REFERS_TO; Reference rows).

export interface CitationSide {
  document: DocumentRecord;
  sections: readonly Section[];
}

/** The citations printed in the headings of `from`'s sections, resolved against every side. */
export function headingCitations(from: CitationSide, sides: readonly CitationSide[]): CrossReferenceRecord[] {
  const documents = new Map<string, KnownDocument>();
  for (const side of sides) {
    documents.set(side.document.id, {
      title: side.document.title,
      aliases: [...documentAliases(side.document.title, side.sections), ...(side.document.aliases ?? []), ...(side.document.userAliases ?? [])],
      labels: labelIndex(side.sections),
    });
  }
  const asText = from.sections.filter((s) => s.heading.trim() !== "").map((s) => ({ ...s, text: s.heading }));
  const language = from.document.language === "it" ? "it" : "en";
  return buildCrossReferences(from.document.id, asText, documentKind(from.sections, from.document.language), language, documents);
}

const baseLabel = provisionLabel;

/**
 * A section id → B section id → the citation linking them, in either direction. A citation of a
 * provision stored in parts ("§ 164.512 (part 2)") links each of its parts; a heading citation wins
 * over one in the text (it says what the whole section is about).
 */
export function citationLinks(
  aIds: ReadonlySet<string>,
  bSections: readonly Section[],
  allSections: ReadonlyMap<string, Section>,
  textReferences: readonly CrossReferenceRecord[],
  headingReferences: readonly CrossReferenceRecord[],
): Map<string, Map<string, CitationLink>> {
  const bIds = new Set(bSections.map((s) => s.id));
  // Sections sharing a document and a base label are one provision.
  const parts = new Map<string, string[]>();
  for (const s of allSections.values()) {
    const key = `${s.documentId}\u0000${baseLabel(s.label)}`;
    const list = parts.get(key);
    if (list) list.push(s.id);
    else parts.set(key, [s.id]);
  }
  const partsOf = (id: string): string[] => {
    const s = allSections.get(id);
    return s === undefined ? [id] : (parts.get(`${s.documentId}\u0000${baseLabel(s.label)}`) ?? [id]);
  };
  const out = new Map<string, Map<string, CitationLink>>();
  const link = (aId: string, bId: string, value: CitationLink): void => {
    let row = out.get(aId);
    if (!row) out.set(aId, (row = new Map()));
    const known = row.get(bId);
    if (known === undefined || (!known.inHeading && value.inHeading)) row.set(bId, value);
  };
  const add = (r: CrossReferenceRecord, inHeading: boolean): void => {
    if (r.toSectionId === null) return;
    const from = r.fromSectionId;
    for (const to of partsOf(r.toSectionId)) {
      if (aIds.has(from) && bIds.has(to)) link(from, to, { direction: "a-cites-b", raw: r.raw, inHeading });
      else if (bIds.has(from) && aIds.has(to)) link(to, from, { direction: "b-cites-a", raw: r.raw, inHeading });
    }
  };
  for (const r of textReferences) add(r, false);
  for (const r of headingReferences) add(r, true);
  return out;
}
