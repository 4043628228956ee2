import { describe, expect, it } from "vitest";
import { lexicalTerms } from "../../core/compare/compare-text.ts";
import { createEnglishStems } from "../../core/text/index.ts";
import { citationLinks, headingCitations } from "../../core/compare/crosswalk-citations.ts";
import { readDeadline, stricterDeadline, tightestDeadline } from "../../core/compare/deadline-duration.ts";
import { buildLexicalSpace } from "../../core/compare/lexical-space.ts";
import { matchingSentences, sentenceUnits } from "../../core/compare/matching-sentences.ts";
import { diffObligations } from "../../core/compare/obligation-diff.ts";
import { buildVerdictPrompt, parseVerdictOutput, verdictCacheKey, verdictJsonSchema } from "../../core/compare/verdict-prompt.ts";
import type { TripletRecord } from "../../core/model/graph-records.ts";
import { makeDocument, makeSections } from "../helpers/store-fixtures.ts";

// One stem cache for the file, as the engine's comparisons keep one (core/text/stem-porter.ts).
const stems = createEnglishStems();

// The model-free rules of a comparison, one by one: time limits read and ranked, obligations
// paired and flagged, matching sentences, the lexical index, citations printed in headings, and
// the verdict prompt's grammar and cache key.

function triplet(
  id: string,
  subject: string,
  predicate: string,
  object: string,
  modality: TripletRecord["modality"],
  deadline: string | null,
  evidence: string,
): TripletRecord {
  return {
    id,
    documentId: id.split(":")[0] ?? "",
    sectionId: "s",
    subjectId: `e:${subject}`,
    subject,
    predicate,
    objectId: `e:${object}`,
    object,
    modality,
    deadline,
    source: "rule",
    confidence: 0.8,
    start: 0,
    end: evidence.length,
    evidence,
  };
}

describe("deadlines", () => {
  it("reads periods in hours, immediacy, frequencies, and ranks the stricter", () => {
    expect(readDeadline("within 72 hours")).toEqual({ text: "within 72 hours", kind: "period", hours: 72 });
    expect(readDeadline("not later than one month after")).toMatchObject({ kind: "period", hours: 720 });
    expect(readDeadline("entro 10 giorni")).toMatchObject({ kind: "period", hours: 240 });
    expect(readDeadline("without undue delay").kind).toBe("immediate");
    expect(readDeadline("at least every two years")).toMatchObject({ kind: "frequency", hours: 2 * 365 * 24 });
    expect(readDeadline("at least annually")).toMatchObject({ kind: "frequency", hours: 365 * 24 });
    expect(stricterDeadline(readDeadline("within 4 hours"), readDeadline("within 72 hours"))).toBe("a");
    expect(stricterDeadline(readDeadline("every year"), readDeadline("every two years"))).toBe("a");
    expect(stricterDeadline(readDeadline("without undue delay"), readDeadline("within 72 hours"))).toBeNull();
    expect(stricterDeadline(readDeadline("within 3 days"), readDeadline("within 72 hours"))).toBe("same");
    expect(tightestDeadline("without undue delay; not later than 72 hours")).toMatchObject({ kind: "period", hours: 72 });
    expect(tightestDeadline(null)).toBeNull();
  });
});

describe("obligations side by side", () => {
  it("pairs duties across wordings and flags the shorter deadline, the weaker modality and what one side lacks", () => {
    const a = [
      triplet(
        "a:1",
        "payment firm",
        "shall report",
        "major incident to the competent authority",
        "must",
        "within 4 hours",
        "A payment firm shall report every major incident to the competent authority within 4 hours.",
      ),
      triplet("a:2", "payment firm", "shall keep", "backup copies of its data", "must", null, "A payment firm shall keep backup copies of its data."),
      triplet("a:3", "management body", "shall approve", "the policy", "must", null, "The management body shall approve the policy."),
    ];
    const b = [
      triplet(
        "b:1",
        "controller",
        "shall notify",
        "personal data breach to the supervisory authority",
        "must",
        "within 72 hours",
        "A controller shall notify a personal data breach to the supervisory authority within 72 hours.",
      ),
      triplet("b:2", "controller", "may keep", "backup copies of personal data", "may", null, "A controller may keep backup copies of personal data."),
    ];
    const diff = diffObligations(
      { text: a.map((t) => t.evidence).join(" "), triplets: a, language: "en" },
      { text: b.map((t) => t.evidence).join(" "), triplets: b, language: "en" },
      stems,
    );
    const paired = diff.rows.filter((r) => r.a !== null && r.b !== null).map((r) => [r.a?.tripletId, r.b?.tripletId]);
    expect(paired).toEqual([
      ["a:1", "b:1"],
      ["a:2", "b:2"],
    ]);
    expect(diff.rows.find((r) => r.a?.tripletId === "a:3")?.b).toBeNull();
    expect(diff.flags).toContainEqual(expect.objectContaining({ kind: "deadline", a: "within 4 hours", b: "within 72 hours", stricter: "a" }));
    expect(diff.flags).toContainEqual(expect.objectContaining({ kind: "modality", a: "shall", b: "may", stricter: "a" }));
    expect(diff.flags).toContainEqual(expect.objectContaining({ kind: "unmatched-obligation", side: "a" }));
    expect(diff.rows.find((r) => r.a?.tripletId === "a:1")?.a?.modality).toBe("shall");
  });

  it("says when one side binds and the other states no obligation; opposite duties have no stricter side", () => {
    const a = [triplet("a:1", "provider", "shall disclose", "the data", "must", null, "The provider shall disclose the data.")];
    const none = diffObligations({ text: "", triplets: a, language: "en" }, { text: "Definitions only.", triplets: [], language: "en" }, stems);
    expect(none.flags).toEqual([expect.objectContaining({ kind: "no-obligations", side: "a" })]);
    const b = [triplet("b:1", "provider", "shall not disclose", "the data", "must not", null, "The provider shall not disclose the data.")];
    const opposite = diffObligations({ text: "", triplets: a, language: "en" }, { text: "", triplets: b, language: "en" }, stems);
    const flag = opposite.flags.find((f) => f.kind === "modality");
    expect(flag?.message).toMatch(/Opposite duties/);
    expect(flag?.stricter).toBeUndefined();
  });

  it("compares time limits printed in the text when no paired obligation carries them", () => {
    const diff = diffObligations(
      { text: "Notifications are made within 24 hours.", triplets: [], language: "en" },
      { text: "Notifications are made within 3 days.", triplets: [], language: "en" },
      stems,
    );
    expect(diff.flags).toEqual([expect.objectContaining({ kind: "deadline", stricter: "a" })]);
  });
});

describe("matching sentences and the lexical space", () => {
  it("finds the sentences two texts share, with their spans, each used once", () => {
    const a = "1. Firms shall keep backups of their data.\n2. Firms shall train staff every year.";
    const b = "Controllers must restore data from backups. Staff training happens every year.";
    const pairs = matchingSentences(a, b, "en", stems, 3);
    expect(pairs.map((p) => [p.a.text, p.b.text])).toEqual([
      ["2. Firms shall train staff every year.", "Staff training happens every year."],
      ["1. Firms shall keep backups of their data.", "Controllers must restore data from backups."],
    ]);
    for (const p of pairs) expect(a.slice(p.a.start, p.a.end)).toBe(p.a.text);
    expect(sentenceUnits("First one. Second one.\n(a) a list item;").map((u) => u.text)).toEqual(["First one.", "Second one.", "(a) a list item;"]);
  });

  it("stems words and keeps word pairs; the index finds the lexical neighbours among a pool", () => {
    expect(lexicalTerms("Restoration of the backups", "en", stems)).toEqual(["restor", "backup"]);
    expect(lexicalTerms("personal data breaches", "en", stems)).toEqual(["person", "person data", "data", "data breach", "breach"]);
    const space = buildLexicalSpace(
      [
        { id: "a", terms: lexicalTerms("report incidents to the authority", "en", stems) },
        { id: "b1", terms: lexicalTerms("notify incidents to the regulator authority", "en", stems) },
        { id: "b2", terms: lexicalTerms("keep backups of data", "en", stems) },
      ],
      new Map([["b", ["b1", "b2"]]]),
    );
    expect(space.nearest("a", "b", 2).map((n) => n.id)).toEqual(["b1"]);
    expect(space.sharedTerms("a", "b1", 5)).toEqual(expect.arrayContaining(["incid", "author"]));
    expect(space.cosine("a", "b2")).toBe(0);
  });
});

describe("citations between the sides", () => {
  it("reads the HIPAA section a NIST guide's heading names, and links every part of a provision", () => {
    const guide = makeDocument("guide", 2, { title: "An Introductory Resource Guide" });
    const guideSections = makeSections("guide", [
      { label: "Section 4.1", heading: "Security Management Process (§ 164.308(a)(1))", text: "HIPAA Standard: implement policies.", kind: "subsection" },
    ]);
    const rule = makeDocument("rule", 3, { title: "HIPAA Administrative Simplification" });
    const ruleSections = makeSections("rule", [
      { label: "§ 164.308", heading: "Administrative safeguards.", text: "A covered entity must implement policies.", kind: "section" },
      { label: "§ 164.308 (part 2)", heading: "Administrative safeguards.", text: "More of the same section.", kind: "section" },
    ]);
    const sides = [
      { document: guide, sections: guideSections },
      { document: rule, sections: ruleSections },
    ];
    const heading = headingCitations(sides[0] as (typeof sides)[number], sides);
    expect(heading.map((r) => [r.raw, r.toSectionId])).toEqual([["§ 164.308(a)(1)", "rule:s1"]]);
    const all = new Map([...guideSections, ...ruleSections].map((s) => [s.id, s]));
    const links = citationLinks(new Set(["guide:s1"]), ruleSections, all, [], heading);
    expect([...(links.get("guide:s1")?.keys() ?? [])].sort()).toEqual(["rule:s1", "rule:s2"]);
    expect(links.get("guide:s1")?.get("rule:s1")).toEqual({ direction: "a-cites-b", raw: "§ 164.308(a)(1)", inHeading: true });
  });
});

describe("verdict prompt", () => {
  it("numbers the sentences it shows and allows exactly those in its grammar; parses and keys the answer", () => {
    const a = sentenceUnits("A firm shall report incidents within 4 hours. It shall keep records.");
    const b = sentenceUnits("A controller shall notify breaches within 72 hours.");
    const prompt = buildVerdictPrompt(
      { document: "Act A", heading: "Article 2 — Reporting", sentences: a },
      { document: "Act B", heading: "Article 11", sentences: b },
    );
    expect(prompt).toContain("A1. A firm shall report incidents within 4 hours.");
    expect(prompt).toContain("A2. It shall keep records.");
    expect(prompt).toContain("B1. A controller shall notify breaches within 72 hours.");
    const schema = verdictJsonSchema(a.length, b.length) as { properties: Record<string, { enum: string[] }> };
    expect(schema.properties.sentence_a?.enum).toEqual(["A1", "A2"]);
    expect(schema.properties.sentence_b?.enum).toEqual(["B1"]);
    expect(schema.properties.verdict?.enum).toEqual(["equivalent", "a_stricter", "b_stricter", "contradicts", "unrelated"]);
    expect(parseVerdictOutput('{"verdict":"a_stricter","sentence_a":"A1","sentence_b":"B1"}')).toEqual({
      verdict: "a_stricter",
      sentence_a: "A1",
      sentence_b: "B1",
    });
    expect(parseVerdictOutput('{"verdict":"maybe","sentence_a":"A1","sentence_b":"B1"}')).toBeNull();
    expect(parseVerdictOutput('{"verdict":"equivalent","sentence_a":"A1"')).toBeNull();
    const key = verdictCacheKey({ aHash: "x", bHash: "y", modelId: "m", contextSize: 2048 });
    expect(verdictCacheKey({ aHash: "x", bHash: "y", modelId: "m", contextSize: 2048 })).toBe(key);
    expect(verdictCacheKey({ aHash: "x", bHash: "z", modelId: "m", contextSize: 2048 })).not.toBe(key);
    expect(verdictCacheKey({ aHash: "x", bHash: "y", modelId: "other", contextSize: 2048 })).not.toBe(key);
  });
});
