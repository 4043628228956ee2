import { describe, expect, it } from "vitest";
import { asksPerInstrument, instrumentScopes, interleave, joinAnswers } from "../../core/answer/compose/per-instrument.ts";
import { askResultSchema } from "../../core/model/answer-schemas.ts";
import { REFUSAL, type AskResult } from "../../core/model/answer-types.ts";
import type { RankedSection } from "../../core/model/retrieval-types.ts";

// Questions naming two instruments are answered per instrument and joined: which names make parts,
// how the rankings meet, and how two answers become one with their citations re-keyed.

function citation(key: string, sectionId: string, label: string): AskResult["citations"][number] {
  return {
    key,
    sectionId,
    documentId: sectionId.split(":")[0] ?? "",
    file: "x.pdf",
    title: "t",
    label,
    sectionLabel: label,
    pageStart: 1,
    pageEnd: 1,
    quote: "q",
  } as AskResult["citations"][number];
}

function answer(parts: Array<{ text: string; key: string; more?: boolean }>, citations: AskResult["citations"]): AskResult {
  return {
    answer: parts.map((p) => `${p.text} [${p.key}]`).join(" "),
    mode: "extractive",
    citations,
    sentences: parts.map((p) => ({
      text: p.text,
      citationKeys: [p.key],
      supported: true,
      evidence: [{ key: p.key, start: 0, end: 1 }],
      ...(p.more ? { more: true } : {}),
    })),
    triplets: [],
    subgraph: { nodes: [], edges: [] },
    timings: { retrieveMs: 5, promptTokens: 0, firstTokenMs: null, totalMs: 10 },
  };
}

const refused: AskResult = {
  answer: REFUSAL,
  mode: "extractive",
  citations: [],
  sentences: [{ text: REFUSAL, citationKeys: [], supported: true }],
  triplets: [],
  subgraph: { nodes: [], edges: [] },
  timings: { retrieveMs: 5, promptTokens: 0, firstTokenMs: null, totalMs: 10 },
  refusalReason: "Nothing in the library is close enough to this question.",
};

describe("answers per instrument", () => {
  it("splits a question that sets instruments side by side or joins their names, not one asked in another's words", () => {
    expect(asksPerInstrument("Compare how quickly individuals must be notified of a breach under GDPR and under HIPAA.", ["GDPR", "HIPAA"])).toBe(true);
    expect(asksPerInstrument("What do DORA and the GDPR require for incident notification?", ["DORA", "GDPR"])).toBe(true);
    expect(asksPerInstrument("Entro quando si notifica una violazione secondo il GDPR e secondo la DORA?", ["GDPR", "DORA"])).toBe(true);
    expect(asksPerInstrument("How do NIST SP 800-171 and NIST SP 800-30 differ on risk assessment?", ["NIST SP 800-171", "NIST SP 800-30"])).toBe(true);
    expect(asksPerInstrument("According to NIST SP 800-66, how often must the HIPAA evaluation be performed?", ["NIST SP 800-66", "HIPAA"])).toBe(false);
    expect(asksPerInstrument("How quickly must a controller notify a breach under the GDPR?", ["GDPR"])).toBe(false);
  });

  it("makes a part of each named instrument with documents of its own, in the order named", () => {
    const docs: Record<string, string[]> = { GDPR: ["gdpr"], HIPAA: ["hipaa", "nist66"], "NIST SP 800-66": ["nist66"], "the GDPR": ["gdpr"], MiCA: [] };
    const of = (name: string): string[] => docs[name] ?? [];
    expect(instrumentScopes(["GDPR", "HIPAA"], of)).toEqual([
      { name: "GDPR", documentIds: ["gdpr"] },
      { name: "HIPAA", documentIds: ["hipaa", "nist66"] },
    ]);
    // The guide named beside the rule takes its own document from the rule's.
    expect(instrumentScopes(["HIPAA", "NIST SP 800-66"], of)).toEqual([
      { name: "HIPAA", documentIds: ["hipaa"] },
      { name: "NIST SP 800-66", documentIds: ["nist66"] },
    ]);
    // One instrument named twice, or one not imported, is no second part.
    expect(instrumentScopes(["GDPR", "the GDPR"], of)).toEqual([]);
    expect(instrumentScopes(["GDPR", "MiCA"], of)).toEqual([]);
  });

  it("takes the parts' rankings in turn, each section once", () => {
    const r = (id: string): RankedSection => ({ section: { id } }) as unknown as RankedSection;
    expect(
      interleave(
        [
          [r("a1"), r("a2"), r("x")],
          [r("b1"), r("x")],
        ],
        10,
      ).map((x) => x.section.id),
    ).toEqual(["a1", "b1", "a2", "x"]);
    expect(interleave([[r("a1"), r("a2")], [r("b1")]], 2).map((x) => x.section.id)).toEqual(["a1", "b1"]);
  });

  it("joins two answers: each part's lead before show more, citations re-keyed (GDPR, HIPAA)", () => {
    const gdpr = answer(
      [
        { text: "The controller shall notify within 72 hours.", key: "S1" },
        { text: "The processor shall notify the controller.", key: "S2", more: true },
      ],
      [citation("S1", "gdpr:33", "GDPR Art. 33(1), p. 52"), citation("S2", "gdpr:33", "GDPR Art. 33(2), p. 52")],
    );
    const hipaa = answer(
      [{ text: "Notice must be provided no later than 60 calendar days after discovery.", key: "S1" }],
      [citation("S1", "hipaa:404", "HIPAA § 164.404(b), p. 71")],
    );
    const joined = joinAnswers([
      { scope: { name: "GDPR", documentIds: ["gdpr"] }, result: gdpr },
      { scope: { name: "HIPAA", documentIds: ["hipaa"] }, result: hipaa },
    ]);
    expect(askResultSchema.safeParse(joined).success).toBe(true);
    expect(joined.citations.map((c) => [c.key, c.label])).toEqual([
      ["S1", "GDPR Art. 33(1), p. 52"],
      ["S2", "GDPR Art. 33(2), p. 52"],
      ["S3", "HIPAA § 164.404(b), p. 71"],
    ]);
    expect(joined.sentences.map((s) => [s.citationKeys[0], s.more === true])).toEqual([
      ["S1", false],
      ["S3", false],
      ["S2", true],
    ]);
    expect(joined.sentences[1]?.evidence?.[0]?.key).toBe("S3");
    expect(joined.answer).toContain("60 calendar days after discovery [S3].");
  });

  it("says which part the library does not answer, and refuses only when none is answered", () => {
    const gdpr = answer([{ text: "The controller shall notify within 72 hours.", key: "S1" }], [citation("S1", "gdpr:33", "GDPR Art. 33(1), p. 52")]);
    const one = joinAnswers([
      { scope: { name: "GDPR", documentIds: ["gdpr"] }, result: gdpr },
      { scope: { name: "HIPAA", documentIds: ["hipaa"] }, result: refused },
    ]);
    expect(one.citations).toHaveLength(1);
    expect(one.analysis).toMatch(/^HIPAA: Nothing in the library is close enough/);
    const none = joinAnswers([
      { scope: { name: "GDPR", documentIds: ["gdpr"] }, result: refused },
      { scope: { name: "HIPAA", documentIds: ["hipaa"] }, result: refused },
    ]);
    expect(none.answer).toBe(REFUSAL);
  });
});
