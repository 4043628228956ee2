import { describe, expect, it } from "vitest";
import { answerQuestion } from "../../core/answer/compose/answer-question.ts";
import { citationStops, quotedRange } from "../../renderer/src/chat/citation-trail.ts";
import { doc, input, ranked, section } from "../helpers/answer-fixtures.ts";

// A chip highlights exactly what its sentence quotes: an answer sentence read across two units of
// the text (a CFR paragraph's caption and the duty after it, a point's heading and its body) had
// highlighted only its first unit, "(A) Risk analysis (Required).", not the quoted duty.

const HIPAA = doc("hipaa", "HIPAA", "hipaa.pdf");
const FAA = doc("faa", "FAA AD", "faa.pdf");

const safeguards = section(HIPAA, "§ 164.308", "section", "Administrative safeguards.", [
  [64, "64", "(a) A covered entity or business associate must, in accordance with § 164.306:"],
  [64, "64", "(1)(i) Standard: Security management process. Implement policies and procedures to prevent, detect, contain, and correct security violations."],
  [64, "64", "(ii) Implementation specifications:"],
  [
    64,
    "64",
    "(A) Risk analysis (Required). Conduct an accurate and thorough assessment of the potential risks and vulnerabilities to the confidentiality, integrity, and availability of electronic protected health information held by the covered entity or business associate.",
  ],
  [
    64,
    "64",
    "(B) Risk management (Required). Implement security measures sufficient to reduce risks and vulnerabilities to a reasonable and appropriate level.",
  ],
]);

const directive = section(FAA, "§ 39.13", "section", "Airworthiness directives", [
  // A paragraph is pinned where the list it continues is printed: (l) before (m).
  [14, "14", "(l) Parts Installation Prohibition. As of the effective date of this AD, no person may install the part."],
  [
    14,
    "14",
    "(m) Operational Readiness Flight. Before further flight after accomplishing the actions in paragraph (g) of this AD, do an operational readiness flight.",
  ],
  [
    14,
    "14",
    "(k) Horizontal Stabilizer Trim Wire Bundle Routing Change. Before further flight, do all applicable actions identified as RC in the service bulletin.",
  ],
]);

describe("a citation highlights all its sentence quotes", () => {
  it("a CFR paragraph's caption and its duty, quoted as one sentence (HIPAA § 164.308(a)(1)(ii)(A))", async () => {
    const r = await answerQuestion(input("What does the risk analysis require a covered entity to conduct?", ranked([[safeguards, HIPAA]])));
    const stop = citationStops(r).find((s) => s.citation.label.endsWith("(a)(1)(ii)(A), p. 64"));
    expect(stop?.emphasis).toBeDefined();
    const highlighted = safeguards.text.slice(stop?.emphasis?.start ?? 0, stop?.emphasis?.end ?? 0);
    expect(highlighted).toMatch(/^\(A\) Risk analysis \(Required\)\. Conduct an accurate and thorough assessment/);
    expect(highlighted).toMatch(/covered entity or business associate\.$/);
  });

  it("covers every stretch a sentence cites under one key, and nothing of another key", () => {
    const sentence = {
      evidence: [
        { key: "S1", start: 120, end: 151 },
        { key: "S2", start: 10, end: 40 },
        { key: "S1", start: 152, end: 260 },
      ],
    };
    expect(quotedRange(sentence, "S1")).toEqual({ start: 120, end: 260 });
    expect(quotedRange(sentence, "S2")).toEqual({ start: 10, end: 40 });
    expect(quotedRange(sentence, "S3")).toBeUndefined();
  });

  it("a directive paragraph's caption and its instruction, quoted as one sentence (FAA AD § 39.13(m))", async () => {
    const r = await answerQuestion(input("What must be done before further flight after the actions of paragraph (g)?", ranked([[directive, FAA]])));
    const stop = citationStops(r).find((st) => st.citation.label.includes("(m)"));
    const highlighted = directive.text.slice(stop?.emphasis?.start ?? 0, stop?.emphasis?.end ?? 0);
    expect(highlighted).toBe(
      "(m) Operational Readiness Flight. Before further flight after accomplishing the actions in paragraph (g) of this AD, do an operational readiness flight.",
    );
  });
});
