import { describe, expect, it } from "vitest";
import { makeSnippet } from "../../core/retrieve/snippet.ts";

describe("makeSnippet", () => {
  const filler = "Lorem ipsum dolor sit amet consectetur. ".repeat(30);
  const text = `${filler}The financial entity shall notify the competent authority of a major incident. ${filler}`;

  it("returns short texts whole", () => {
    expect(makeSnippet("Short text.", "anything")).toBe("Short text.");
  });

  it("centres the window on the query terms, with ellipses", () => {
    const s = makeSnippet(text, "notify competent authority", 200);
    expect(s).toContain("shall notify the competent authority");
    expect(s.startsWith("… ")).toBe(true);
    expect(s.endsWith(" …")).toBe(true);
    expect(s.length).toBeLessThanOrEqual(210);
  });

  it("falls back to the beginning when nothing matches", () => {
    expect(makeSnippet(text, "zzzz", 100).startsWith("Lorem ipsum")).toBe(true);
  });
});
