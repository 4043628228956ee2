import { provisionLabel } from "../structure/part-label.ts";
import { createHash } from "node:crypto";
import { findCrossReferences, type DocumentKind } from "../extract/cross-references.ts";
import { findInstruments } from "../extract/instruments.ts";
import { resolveReferences, type KnownDocument } from "../extract/resolve-references.ts";
import type { CrossReferenceRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";

/** Section label → id, with long sections split into parts cited by their first part. */
export function labelIndex(sections: ReadonlyArray<Pick<Section, "id" | "label" | "ordinal">>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const s of [...sections].sort((a, b) => a.ordinal - b.ordinal)) {
    const base = provisionLabel(s.label);
    if (!labels.has(base)) labels.set(base, s.id);
  }
  return labels;
}

/**
 * "§ 164.308" names one CFR section wherever it is cited from: a guide that cites it without
 * "45 CFR" (NIST SP 800-66) still means the regulation's section, when exactly one imported
 * document holds that label. Article numbers are not unique across acts and get no such help.
 */
function uniqueCfrSection(
  label: string | null,
  instrument: string | undefined,
  fromDocumentId: string,
  documents: Map<string, KnownDocument>,
): { documentId: string; sectionId: string } | null {
  if (label === null || !label.startsWith("§ ") || instrument !== undefined) return null;
  const holders = [...documents.entries()].filter(([id, doc]) => id !== fromDocumentId && doc.labels.has(label));
  if (holders.length !== 1) return null;
  const [documentId, doc] = holders[0] ?? [];
  const sectionId = doc?.labels.get(label);
  return documentId !== undefined && sectionId !== undefined ? { documentId, sectionId } : null;
}

// "Amendments to Regulation (EC) No 1060/2009" (DORA Arts 59–64), "Regulation (EU) No 648/2012 is
// amended as follows": the section rewrites another act, and "Article 26 is amended" is that act's.
const AMENDS_HEADING = /^amendments?\s+to\b/i;
const AMENDS_TEXT = /^\s*(?:\(\d+\)\s*)?(?:Regulation|Directive|Decision)\b[^.:]{0,80}?\bis\s+amended\s+as\s+follows/i;

/** The act a section amends, or undefined. */
export function amendedInstrument(section: Pick<Section, "heading" | "text">): string | undefined {
  if (AMENDS_HEADING.test(section.heading)) return findInstruments(section.heading)[0]?.instrument;
  if (AMENDS_TEXT.test(section.text)) return findInstruments(section.text.slice(0, 200))[0]?.instrument;
  return undefined;
}

function referenceId(fromSectionId: string, start: number, label: string | null, index: number): string {
  return createHash("sha256")
    .update(`${fromSectionId}\u0000${start}\u0000${label ?? ""}\u0000${index}`)
    .digest("hex")
    .slice(0, 24);
}

/**
 * Every citation printed in the document's sections, resolved to a section of this document or of
 * another imported one where it can be; the rest is kept unresolved, never dropped.
 */
export function buildCrossReferences(
  documentId: string,
  sections: readonly Section[],
  kind: DocumentKind,
  language: "en" | "it",
  documents: Map<string, KnownDocument>,
): CrossReferenceRecord[] {
  const records: CrossReferenceRecord[] = [];
  for (const section of sections) {
    if (section.text.length === 0) continue;
    const references = findCrossReferences(section.text, { documentKind: kind, language });
    if (references.length === 0) continue;
    const amends = amendedInstrument(section);
    const edges = resolveReferences({
      references,
      fromSectionId: section.id,
      fromDocumentId: documentId,
      currentLabel: section.label,
      currentPath: section.path,
      documents,
      ...(amends === undefined ? {} : { amends }),
    });
    const seen = new Set<string>();
    edges.forEach((edge, i) => {
      // A citation of the section it stands in ("paragraph 2" of this article) is not an edge.
      if (edge.toSectionId === section.id) return;
      const target = edge.toSectionId === null ? uniqueCfrSection(edge.label, edge.instrument, documentId, documents) : null;
      const toSectionId = edge.toSectionId ?? target?.sectionId ?? null;
      // "Article 2(1), points (a), (b) and (d)" is one citation of one article, not three.
      const key = `${edge.span.start}\u0000${edge.label ?? ""}\u0000${toSectionId ?? ""}`;
      if (seen.has(key)) return;
      seen.add(key);
      records.push({
        id: referenceId(section.id, edge.span.start, edge.label, i),
        documentId,
        fromSectionId: section.id,
        toSectionId,
        toDocumentId: target?.documentId ?? edge.toDocumentId ?? null,
        raw: edge.raw,
        label: edge.label,
        pinpoint: edge.pinpoint ?? null,
        instrument: edge.instrument ?? null,
        start: edge.span.start,
        end: edge.span.end,
        resolved: edge.resolved || target !== null,
      });
    });
  }
  return records;
}
