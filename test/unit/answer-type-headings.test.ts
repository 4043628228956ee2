import { describe, expect, it } from "vitest";
import { rankForAnswer } from "../../core/answer/compose/answer-ranking.ts";
import type { AnswerType } from "../../core/model/question-analysis-types.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { RankedSection } from "../../core/model/retrieval-types.ts";
import type { Section } from "../../core/model/section-types.ts";
import { makeDocument } from "../helpers/store-fixtures.ts";

// Rule "the answer type's headings stay in the question's documents" (answer-ranking.ts): a
// "Scope" or "Definitions" heading raises a section for a scope or definition question only in a
// document the question's words found; elsewhere it answers another instrument's question.

const DIRECTIVE = makeDocument("faa00000", 4, { title: "Airworthiness Directives; The Boeing Company Airplanes" });
const GDPR = makeDocument("gdpr0000", 4, { title: "Regulation (EU) 2016/679 (General Data Protection Regulation)" });
const NIST = makeDocument("nist0000", 4, { title: "NIST SP 800-171 Protecting Controlled Unclassified Information" });
const HIPAA = makeDocument("hipaa000", 4, { title: "HIPAA Administrative Simplification 45 CFR Parts 160, 162 and 164" });

function section(document: DocumentRecord, label: string, heading: string, text: string): Section {
  return {
    id: `${document.id}:${label}`,
    documentId: document.id,
    ordinal: 0,
    kind: "section",
    label,
    heading,
    path: [label],
    parentId: null,
    level: 1,
    text,
    pageStart: 1,
    pageEnd: 1,
    spans: [{ start: 0, end: text.length, page: 1, box: { x: 0, y: 0, width: 1, height: 1 } }],
  };
}

const retrieved = (hits: Array<[DocumentRecord, Section, number]>): RankedSection[] =>
  hits.map(([document, s, score], i) => ({ section: s, document, score, rank: i + 1, evidence: { stages: {}, tripletIds: [], links: [], features: {} } }));

const analysis = (answerType: AnswerType): Parameters<typeof rankForAnswer>[1] => ({
  answerType,
  focusTerms: [],
  provisionLabels: [],
  scope: { documentIds: [], parts: [], instruments: [], provisions: [], parties: [] },
});

const order = (hits: Array<[DocumentRecord, Section, number]>, type: AnswerType): string[] =>
  rankForAnswer(retrieved(hits), analysis(type)).map((r) => r.section.label);

describe("the answer type's headings stay in the question's documents", () => {
  it("a directive's applicability question is not led by the GDPR's material scope", () => {
    const ad = section(
      DIRECTIVE,
      "§ 39.13",
      "Airworthiness directive",
      "(c) Applicability This AD applies to The Boeing Company Model 737-8 and 737-9 airplanes.",
    );
    const more = section(
      DIRECTIVE,
      "§ 39.13 (part 2)",
      "Airworthiness directive",
      "(d) Subject Air Transport Association (ATA) of America Code 22, Auto flight.",
    );
    const gdprScope = section(
      GDPR,
      "Article 2",
      "Material scope",
      "This Regulation does not apply to the processing of personal data in the course of an activity outside Union law.",
    );
    expect(
      order(
        [
          [DIRECTIVE, ad, 3],
          [DIRECTIVE, more, 2.9],
          [GDPR, gdprScope, 2.16],
        ],
        "scope",
      ),
    ).toEqual(["§ 39.13", "§ 39.13 (part 2)", "Article 2"]);
  });

  it("a NIST account question is not led by HIPAA's definitions, which still lead a HIPAA one", () => {
    const accounts = section(
      NIST,
      "3.1.1",
      "Access control",
      "Limit system access to authorized users. System account types include individual, shared, group, system, guest.",
    );
    const mfa = section(
      NIST,
      "3.5.3",
      "Identification and authentication",
      "Use multifactor authentication for local and network access to privileged accounts.",
    );
    const definitions = section(HIPAA, "§ 160.103", "Definitions.", "Standard means a rule, condition, or requirement.");
    expect(
      order(
        [
          [NIST, accounts, 1],
          [NIST, mfa, 0.9],
          [HIPAA, definitions, 0.72],
        ],
        "definition",
      ),
    ).toEqual(["3.1.1", "3.5.3", "§ 160.103"]);
    // The same definitions section, scored alike, leads when its document is the question's.
    const security = section(
      HIPAA,
      "§ 164.304",
      "Security standards: General rules.",
      "A covered entity must protect electronic protected health information.",
    );
    expect(
      order(
        [
          [HIPAA, security, 1],
          [HIPAA, definitions, 0.72],
          [NIST, mfa, 0.6],
        ],
        "definition",
      ),
    ).toEqual(["§ 160.103", "§ 164.304", "3.5.3"]);
  });
});
