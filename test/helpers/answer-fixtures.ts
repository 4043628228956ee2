import type { AnswerRequest } from "../../core/answer/compose/answer-question.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import type { AnswerHints } from "../../core/model/answer-types.ts";
import type { RankedSection } from "../../core/model/retrieval-types.ts";
import type { Section, SectionKind } from "../../core/model/section-types.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import { makeDocument } from "./store-fixtures.ts";

// Sections and retrieval results for the extractive answer's tests: each line of a section is
// printed on a page, and the answer cites it there.

export function doc(id: string, title: string, fileName: string): DocumentRecord {
  return makeDocument(id, 10, { title, fileName, file: `/lib/${fileName}`, pages: 100, bytes: 1, importedAt: "2025-01-01T00:00:00Z" });
}

/** Lines are [pdf page, printed page, text]. */
export function section(document: DocumentRecord, label: string, kind: SectionKind, heading: string, lines: Array<[number, string | null, string]>): Section {
  let text = "";
  const spans: Section["spans"] = [];
  for (const [page, printed, line] of lines) {
    if (text !== "") text += "\n";
    spans.push({
      start: text.length,
      end: text.length + line.length,
      page,
      box: { x: 0, y: 0, width: 1, height: 1 },
      ...(printed === null ? {} : { label: printed }),
    });
    text += line;
  }
  const pages = lines.map(([p]) => p);
  return {
    id: `${document.id}:${label.toLowerCase().replace(/\W+/g, "-")}`,
    documentId: document.id,
    ordinal: 0,
    kind,
    label,
    heading,
    path: [label],
    parentId: null,
    level: 0,
    text,
    pageStart: Math.min(...pages),
    pageEnd: Math.max(...pages),
    spans,
  };
}

export function ranked(sections: Array<[Section, DocumentRecord]>): RankedSection[] {
  return sections.map(([section, document], i) => ({
    section,
    document,
    score: 1 / (i + 1),
    rank: i + 1,
    evidence: { stages: {}, tripletIds: [], links: [], features: {} },
  }));
}

/** Sections with the scores retrieval gave them and their standing beside the best (a provision a hair behind the first). */
export function scored(sections: Array<[Section, DocumentRecord, number]>): RankedSection[] {
  const best = Math.max(...sections.map(([, , score]) => score));
  return sections.map(([section, document, score], i) => ({
    section,
    document,
    score,
    standing: score / best,
    rank: i + 1,
    evidence: { stages: {}, tripletIds: [], links: [], features: {} },
  }));
}

export function input(question: string, results: RankedSection[], hints?: AnswerHints, extra: Partial<AnswerRequest> = {}): AnswerRequest {
  return {
    question,
    results,
    triplets: [],
    subgraph: { nodes: [], edges: [] },
    embedder: null,
    llm: null,
    retrieveMs: 1,
    resources,
    ...(hints ? { hints } : {}),
    ...extra,
  };
}

const resources = createLanguageResources();

export const hint = (answerType: AnswerHints["answerType"], provisions: string[] = [], parties: string[] = []): AnswerHints => ({
  answerType,
  provisions,
  parties,
});
