import { describe, expect, it } from "vitest";
import { encodeNumber, ftsQueryLiteral, ftsQueryTerms, MAX_QUERY_TERMS, MAX_TERM_CHARS, numberTerms } from "../../core/store/search/fts-query.ts";

// The query reaches the index as text: whatever comes in, only letters,
// marks and single spaces may come out.
const SAFE = /^[\p{L}\p{M}]+( [\p{L}\p{M}]+)*$/u;

describe("ftsQueryLiteral", () => {
  const hostile = [
    "'); MATCH (n) DETACH DELETE n; //",
    "' OR '1'='1",
    "\\'; CALL DROP_FTS_INDEX('Section','section_fts'); //",
    '"double" `back` $param {a: 1} [x] <y> |z|',
    "line\nbreak\r\ttab\u0000nul\u0007bell\u001b[31m",
    "wild* card? ~fuzzy^2",
    "\u202eright-to-left override\u200b zero width",
    "🙂🔥 emoji 👍🏽 mixed",
    "x".repeat(200_000),
    "word ".repeat(50_000),
  ];

  it.each(hostile)("leaves only letters and single spaces: %#", (input) => {
    const literal = ftsQueryLiteral(input);
    if (literal !== "") expect(literal).toMatch(SAFE);
    expect(literal).not.toMatch(/['"\\`*?$\u0000-\u001f]/);
  });

  it("keeps the words of an injection attempt as plain search terms", () => {
    expect(ftsQueryLiteral("'); MATCH (n) DETACH DELETE n; //")).toBe("match n detach delete n");
  });

  it("returns an empty query when nothing searchable is left", () => {
    for (const input of ["", "   ", "'\"\\;//", "🙂🔥", "\u0000\u0001", "*?*", "—–…"]) {
      expect(ftsQueryLiteral(input)).toBe("");
    }
  });

  it("keeps accented and non-Latin words whole, lower-cased", () => {
    expect(ftsQueryLiteral("Perché l’APPALTO è «pubblico»? Città, qualità")).toBe("perché l appalto è pubblico città qualità");
    expect(ftsQueryLiteral("Δέλτα и Über")).toBe("δέλτα и über");
    // NFD input (e + combining accent) is composed, as PDFs and keyboards differ.
    expect(ftsQueryLiteral("cit\u0074a\u0300")).toBe("città");
  });

  it("caps the number and the length of terms", () => {
    expect(ftsQueryTerms("word ".repeat(1000))).toHaveLength(MAX_QUERY_TERMS);
    expect(ftsQueryTerms("a".repeat(MAX_TERM_CHARS + 1))).toEqual([]);
    expect(ftsQueryTerms(`${"a".repeat(MAX_TERM_CHARS)} ok`)).toEqual(["a".repeat(MAX_TERM_CHARS), "ok"]);
  });
});

describe("numbers", () => {
  it("encodes digit runs as letter-only tokens shared by the index and the query", () => {
    expect(encodeNumber("33")).toBe("qnff");
    expect(encodeNumber("0123456789")).toBe("qnbcdfghjklm");
    expect(numberTerms("Article 33 of Regulation (EU) 2016/679, § 164.308")).toBe(
      [encodeNumber("33"), encodeNumber("2016"), encodeNumber("679"), encodeNumber("164"), encodeNumber("308")].join(" "),
    );
    expect(ftsQueryTerms("Article 33")).toEqual(["article", encodeNumber("33")]);
    expect(ftsQueryTerms("art33")).toEqual(["art", encodeNumber("33")]);
  });

  it("drops digit runs too long to be citations", () => {
    expect(numberTerms("id 1234567890123 and 12")).toBe(encodeNumber("12"));
    expect(ftsQueryTerms("1234567890123")).toEqual([]);
  });
});
