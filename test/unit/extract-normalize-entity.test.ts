import { describe, expect, it } from "vitest";
import { canonicalKey, normalizeEntity, singularizeWord } from "../../core/extract/normalize-entity.ts";

describe("normalizeEntity", () => {
  const acronyms = new Map([
    ["ICT", "information and communication technology"],
    ["CUI", "controlled unclassified information"],
  ]);
  const rows: Array<[string, string, Parameters<typeof normalizeEntity>[1]]> = [
    ["The Controller", "controller", {}],
    ["the controllers", "controller", {}],
    ["  Financial   entities ", "financial entity", {}],
    ["personal data", "personal data", {}],
    ["personal data breaches", "personal data breach", {}],
    ["‘processing’", "processing", {}],
    ["the supervisory authorities", "supervisory authority", {}],
    ["processes", "process", {}],
    ["a business associate", "business associate", {}],
    ["an analysis", "analysis", {}],
    ["Member States", "member state", {}],
    ["criteria", "criterion", {}],
    ["ICT third-party service providers", "information and communication technology third-party service provider", { acronyms }],
    ["ICT-related incidents", "information and communication technology-related incident", { acronyms }],
    ["CUI", "controlled unclassified information", { acronyms }],
    ["la stazione appaltante", "stazione appaltante", { language: "it" }],
    ["l’operatore economico", "operatore economico", { language: "it" }],
    ["gli operatori economici", "operatori economici", { language: "it" }],
    ["«servizi postali»", "servizi postali", { language: "it" }],
  ];
  it.each(rows)("%s", (input, expected, options) => {
    expect(normalizeEntity(input, options)).toBe(expected);
  });
});

describe("singularizeWord", () => {
  it("is conservative with words that only look plural", () => {
    for (const w of ["data", "means", "status", "analysis", "business", "access", "series", "basis", "its"]) expect(singularizeWord(w)).toBe(w);
    expect(singularizeWord("entities")).toBe("entity");
    expect(singularizeWord("breaches")).toBe("breach");
    expect(singularizeWord("boxes")).toBe("box");
    expect(singularizeWord("measures")).toBe("measure");
  });
});

describe("canonicalKey", () => {
  it("merges spelling variants of the same entity", () => {
    expect(canonicalKey("ICT third-party service providers")).toBe(canonicalKey("the ICT third party service provider"));
    expect(canonicalKey("Covered Entities")).toBe(canonicalKey("a covered entity"));
    expect(canonicalKey("the data subject’s")).toBe("data subject");
  });

  it("keeps different entities apart", () => {
    expect(canonicalKey("controller")).not.toBe(canonicalKey("processor"));
    expect(canonicalKey("personal data")).not.toBe(canonicalKey("personal datum"));
  });
});
