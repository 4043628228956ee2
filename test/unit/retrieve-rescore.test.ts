import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../core/retrieve/query-terms.ts";
import { stemEnglish as stem } from "../../core/text/index.ts";
import { poolStats, termFeatures } from "../../core/retrieve/rescore.ts";

describe("query analysis", () => {
  it("drops function words and request vocabulary", () => {
    const q = analyzeQuery("What specific requirements must an Authorised Person meet to notify the Regulator of a breach?");
    expect(q.words).toEqual(["authorised", "person", "meet", "notify", "regulator", "breach"]);
    expect(q.bm25Text).toBe("authorised person meet notify regulator breach");
  });

  it("falls back to the raw question when nothing is left", () => {
    expect(analyzeQuery("What is it?").bm25Text).toBe("What is it?");
  });

  it("stems inflections together", () => {
    expect(stem("notified")).toBe(stem("notify"));
    expect(stem("obligations")).toBe(stem("obligation"));
    expect(stem("submitted")).toBe(stem("submitting"));
    expect(stem("businesses")).toBe(stem("business"));
  });
});

describe("term features", () => {
  const pool = [
    { id: "a", text: "The firm must notify the regulator of any breach promptly.", context: "Notifications" },
    { id: "b", text: "A breach of rules is reported annually by the regulator to the firm.", context: "Reporting" },
    { id: "c", text: "", context: "Breach notification" },
  ];
  const stems = analyzeQuery("notify regulator breach").stems;
  const stats = poolStats(stems, pool);

  it("measures coverage of the query in the text", () => {
    expect(termFeatures(stems, "a", stats).coverage).toBeCloseTo(1, 10);
    const b = termFeatures(stems, "b", stats).coverage;
    expect(b).toBeGreaterThan(0);
    expect(b).toBeLessThan(1);
    expect(termFeatures(stems, "c", stats).coverage).toBe(0);
  });

  it("rewards query words close together", () => {
    expect(termFeatures(stems, "a", stats).proximity).toBe(1);
    expect(termFeatures(stems, "b", stats).proximity).toBe(0);
  });

  it("finds query words in headings", () => {
    expect(termFeatures(stems, "c", stats).headingCoverage).toBeGreaterThan(0);
    expect(termFeatures(stems, "b", stats).headingCoverage).toBe(0);
  });

  it("is all zeros for an empty query", () => {
    expect(termFeatures([], "a", poolStats([], pool))).toEqual({ coverage: 0, headingCoverage: 0, proximity: 0 });
  });
});
