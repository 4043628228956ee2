import { describe, expect, it } from "vitest";
import { baseLabel, labelParagraphs, normalizeForMatch, operativeWordsIn, paragraphSpan } from "../../bench/lib/answer-questions.ts";

// How bench:answer and the labelled-set test read text: no corpus needed, so these always run.

describe("matching answers to the labelled questions", () => {
  it("ignores quotes, dashes, a space after a broken hyphen, non-breaking spaces and case", () => {
    expect(normalizeForMatch("Model 737– 9\u00a0airplanes, dell’offerta")).toBe(normalizeForMatch("model 737-9 airplanes, dell'offerta"));
    expect(operativeWordsIn("Up to 20\u00a0000\u00a0000 EUR, or 4 %", ["20 000 000 EUR", "4 %", "72 hours"])).toEqual({
      found: ["20 000 000 EUR", "4 %"],
      missing: ["72 hours"],
    });
  });

  it("strips the part suffix of long sections", () => {
    expect(baseLabel("§ 164.512 (part 3)")).toBe("§ 164.512");
    expect(baseLabel("Article 19")).toBe("Article 19");
  });

  it("finds an EU paragraph up to the next one", () => {
    const text =
      "1. Financial entities shall report.\n(a) an initial notification;\n2. Financial entities may notify.\n3. Where clients are affected, inform them.";
    const span = paragraphSpan(text, "2");
    expect(span && text.slice(span.start, span.end)).toBe("2. Financial entities may notify.\n");
    expect(paragraphSpan(text, "4")).toBeNull();
  });

  it("skips a line that only continues a cross-reference, and finds a paragraph printed mid-line", () => {
    const text =
      "(a) Standard. Keep a record under paragraph\n(j) of this section.\n(d) Standard: Authentication. Verify the person. (e)(1) Standard: Transmission security. Guard data.\n(j)(1) Standard: Documentation. Retain it.";
    const j = paragraphSpan(text, "(j)");
    expect(j && text.slice(j.start)).toBe("(j)(1) Standard: Documentation. Retain it.");
    const e = paragraphSpan(text, "(e)");
    expect(e && text.slice(e.start, e.start + 25)).toBe("(e)(1) Standard: Transmis");
  });

  it("reads the paragraphs a citation label pins, not its pages", () => {
    expect(labelParagraphs("DORA Art. 19(4), (5), p. 42")).toEqual(["4", "5"]);
    expect(labelParagraphs("HIPAA § 164.310(c), pp. 66–67")).toEqual(["c"]);
    expect(labelParagraphs("HIPAA § 164.308(b)(1)(ii)(A), p. 65")).toEqual(["b"]);
    expect(labelParagraphs("Regulation (EU) 2016/… Art. 5(1), p. 3")).toEqual(["1"]);
    expect(labelParagraphs("NIST SP 800-171r2 3.5.3, p. 36")).toEqual([]);
  });
});
