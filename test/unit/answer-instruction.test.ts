import { describe, expect, it } from "vitest";
import { answerQuestion } from "../../core/answer/compose/answer-question.ts";
import type { TripletRecord } from "../../core/model/graph-records.ts";
import type { Section } from "../../core/model/section-types.ts";
import { doc, input, ranked, section } from "../helpers/answer-fixtures.ts";

// Rule "an instruction may answer in other words": a requirement printed as an instruction, from
// which the graph read a triplet, answers on its score though it shares no word with the
// question, as auditors ask it. Without that triplet it does not; on two documents.

const NIST = doc("nist1710", "NIST SP 800-171r2 Protecting Controlled Unclassified Information", "nist-800-171.pdf");
const HIPAA = doc("hipaa000", "HIPAA Administrative Simplification 45 CFR Parts 160, 162 and 164", "hipaa.pdf");

const MAINTENANCE = section(NIST, "3.7.3", "section", "Maintenance", [
  [28, "20", "Ensure equipment removed for off-site maintenance is sanitized of any CUI."],
]);
const CONTINGENCY = section(NIST, "Appendix I", "appendix", "Device failures", [
  [116, "108", "A laptop going back to its manufacturer for a warranty fix may lose what it holds before it leaves the building."],
]);
const DISPOSAL = section(HIPAA, "§ 164.310(d)", "section", "Device and media controls", [
  [
    66,
    null,
    "Implement policies and procedures to address the final disposition of electronic protected health information, and/or the hardware or electronic media on which it is stored.",
  ],
]);
const DEVICES = section(HIPAA, "§ 164.310", "section", "Physical safeguards", [
  [65, null, "A laptop sent back to the manufacturer for a warranty fix leaves the building with the files it holds."],
]);

function obligationIn(s: Section): TripletRecord {
  return {
    id: `${s.id}#t`,
    documentId: s.documentId,
    sectionId: s.id,
    subjectId: "e:organization",
    subject: "organization",
    predicate: "ensure",
    objectId: "e:equipment",
    object: "equipment",
    modality: "must",
    deadline: null,
    source: "rule",
    confidence: 1,
    start: 0,
    end: s.text.length,
    evidence: s.text,
  };
}

const leadOf = async (question: string, sections: Section[], triplets: TripletRecord[]): Promise<string> => {
  const results = ranked(sections.map((s) => [s, s.documentId === NIST.id ? NIST : HIPAA]));
  const answer = await answerQuestion(input(question, results, undefined, { triplets }));
  return answer.sentences[0]?.text ?? "";
};

describe("an instruction may answer in other words", () => {
  const question = "Our laptop is going back to the manufacturer for a warranty fix. What has to happen before it leaves the building?";

  it("leads with the instruction a triplet was read from, in NIST SP 800-171 and in the CFR", async () => {
    expect(await leadOf(question, [MAINTENANCE, CONTINGENCY], [obligationIn(MAINTENANCE)])).toMatch(/^Ensure equipment removed for off-site maintenance/);
    expect(await leadOf(question, [DISPOSAL, DEVICES], [obligationIn(DISPOSAL)])).toMatch(
      /^Implement policies and procedures to address the final disposition/,
    );
  });

  it("keeps the sentence sharing the question's words when no triplet was read from the instruction", async () => {
    expect(await leadOf(question, [MAINTENANCE, CONTINGENCY], [])).toMatch(/^A laptop going back to its manufacturer/);
    expect(await leadOf(question, [DISPOSAL, DEVICES], [])).toMatch(/^A laptop sent back to the manufacturer/);
  });
});
