// Turns ObliQA passages into the Sections an import would produce, so the benchmark exercises
// the same store and retrieval code as a real PDF: one section per passage, the hierarchy read
// from the passage numbering ("1." > "1.1" > "1.1.1" > "1.1.1.(1)"), and short title-only
// passages ("INTRODUCTION", "Jurisdiction") stored as headings with no body, as the structure
// stage does for printed headings.
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section, SectionKind } from "../../core/model/section-types.ts";
import { passageKey, type Passage } from "./obliqa-corpus.ts";

export interface BenchDocument {
  record: DocumentRecord;
  sections: Section[];
}

export interface AdaptedCorpus {
  documents: BenchDocument[];
  /** Section id → passage key (the qrels id). */
  keyOfSection: Map<string, string>;
  sectionOfKey: Map<string, string>;
}

function normalizeId(passageId: string): string {
  return passageId.trim().replace(/\.+$/, "");
}

/** Closest earlier passage whose id is a dotted prefix of this one. */
function findParent(passageId: string, known: ReadonlyMap<string, string>): string | null {
  const parts = normalizeId(passageId).split(".");
  for (let n = parts.length - 1; n >= 1; n--) {
    const hit = known.get(parts.slice(0, n).join("."));
    if (hit !== undefined) return hit;
  }
  return null;
}

function isTitle(text: string): boolean {
  const t = text.trim();
  return t !== "" && t.length <= 120 && !/[.:;]$/.test(t) && !t.includes("\n");
}

function kindOf(depth: number): SectionKind {
  return depth === 0 ? "chapter" : depth === 1 ? "section" : "rule";
}

export function adaptCorpus(passages: readonly Passage[]): AdaptedCorpus {
  const byDoc = new Map<string, Passage[]>();
  for (const p of passages) {
    const list = byDoc.get(p.documentId) ?? [];
    list.push(p);
    byDoc.set(p.documentId, list);
  }
  const keyOfSection = new Map<string, string>();
  const sectionOfKey = new Map<string, string>();
  const documents: BenchDocument[] = [];
  for (const [documentId, list] of [...byDoc.entries()].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    const docId = `obliqa${documentId.padStart(2, "0")}`;
    const known = new Map<string, string>();
    const sections: Section[] = [];
    const byId = new Map<string, Section>();
    list.forEach((p, ordinal) => {
      const id = `${docId}:${ordinal}`;
      const parentId = findParent(p.passageId, known);
      const parent = parentId === null ? undefined : byId.get(parentId);
      const title = isTitle(p.text) && !/\(\w+\)$/.test(normalizeId(p.passageId));
      const section: Section = {
        id,
        documentId: docId,
        ordinal,
        kind: kindOf(parent ? parent.level + 1 : 0),
        label: p.passageId,
        heading: title ? p.text.trim() : "",
        path: [...(parent?.path ?? []), p.passageId],
        parentId: parent ? parent.id : null,
        level: parent ? parent.level + 1 : 0,
        text: title ? "" : p.text,
        pageStart: 1,
        pageEnd: 1,
        spans: [],
      };
      sections.push(section);
      byId.set(id, section);
      known.set(normalizeId(p.passageId), id);
      const key = passageKey(p.documentId, p.passageId);
      keyOfSection.set(id, key);
      sectionOfKey.set(key, id);
    });
    documents.push({
      record: {
        id: docId,
        sha256: docId.padEnd(64, "0"),
        file: `/obliqa/${documentId}.json`,
        fileName: `${documentId}.json`,
        title: `ADGM document ${documentId}`,
        format: "text",
        language: "en",
        pages: 1,
        bytes: list.reduce((n, p) => n + p.text.length, 0),
        sections: sections.length,
        importedAt: new Date(0).toISOString(),
      },
      sections,
    });
  }
  return { documents, keyOfSection, sectionOfKey };
}
