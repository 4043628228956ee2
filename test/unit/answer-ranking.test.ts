import { describe, expect, it } from "vitest";
import { rankForAnswer } from "../../core/answer/compose/answer-ranking.ts";
import type { AnswerType } from "../../core/model/question-analysis-types.ts";
import type { RankedSection } from "../../core/model/retrieval-types.ts";
import type { Section } from "../../core/model/section-types.ts";
import { makeDocument } from "../helpers/store-fixtures.ts";

// The order an answer draws on the retrieved sections (answer-ranking.ts): a question asking for a
// time limit is answered by the provision headed as one, even when another matches its words better.

const HIPAA = makeDocument("hipaa000", 10, {
  title: "HIPAA Administrative Simplification 45 CFR Parts 160, 162 and 164",
  fileName: "hipaa.pdf",
  file: "/lib/hipaa.pdf",
  pages: 100,
  bytes: 1,
  importedAt: "2025-01-01T00:00:00Z",
});

function section(label: string, heading: string, text: string): Section {
  return {
    id: `${HIPAA.id}:${label}`,
    documentId: HIPAA.id,
    ordinal: 0,
    kind: "section",
    label,
    heading,
    path: ["Part 160", "Subpart D", label],
    parentId: null,
    level: 2,
    text,
    pageStart: 26,
    pageEnd: 26,
    spans: [{ start: 0, end: text.length, page: 26, box: { x: 0, y: 0, width: 1, height: 1 } }],
  };
}

const WAIVER = section(
  "§ 160.412",
  "Waiver.",
  "For violations described in § 160.410(b)(2) or (c) that are not corrected within the period specified under such paragraphs, the Secretary may waive the civil money penalty, in whole or in part.",
);
const LIMITATIONS = section(
  "§ 160.414",
  "Limitations.",
  "No action under this subpart may be entertained unless commenced by the Secretary, in accordance with § 160.420, within 6 years from the date of the occurrence of the violation.",
);

const retrieved = (sections: Array<[Section, number]>): RankedSection[] =>
  sections.map(([section, score], i) => ({ section, document: HIPAA, score, rank: i + 1, evidence: { stages: {}, tripletIds: [], links: [], features: {} } }));

const analysis = (answerType: AnswerType): Parameters<typeof rankForAnswer>[1] => ({
  answerType,
  focusTerms: ["Secretary", "action", "civil money penalty"],
  provisionLabels: [],
  scope: { documentIds: [], parts: [], instruments: [], provisions: [], parties: [] },
});

describe("rankForAnswer", () => {
  it("a time-limit question is answered first from the provision headed 'Limitations'", () => {
    const results = retrieved([
      [WAIVER, 1],
      [LIMITATIONS, 0.8],
    ]);
    expect(rankForAnswer(results, analysis("deadline")).map((r) => r.section.label)).toEqual(["§ 160.414", "§ 160.412"]);
    // Any other question keeps the retrieval's order.
    expect(rankForAnswer(results, analysis("party")).map((r) => r.section.label)).toEqual(["§ 160.412", "§ 160.414"]);
  });
});
