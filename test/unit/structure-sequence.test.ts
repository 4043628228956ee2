import { describe, expect, it } from "vitest";
import { continuesOutline } from "../../core/structure/sequence-guard.ts";
import { longestChain } from "../../core/structure/sequence-chain.ts";
import { sectionDocument } from "../../core/structure/section-document.ts";
import { body, fixtureDoc } from "./structure-fixture.ts";

describe("continuesOutline", () => {
  it("accepts children, siblings and returns to a higher level", () => {
    expect(continuesOutline([3, 2], [3, 2, 1])).toBe(true);
    expect(continuesOutline([3, 2, 1], [3, 2, 2])).toBe(true);
    expect(continuesOutline([3, 2, 1], [3, 3])).toBe(true);
    expect(continuesOutline([2, 3, 4], [3, 1])).toBe(true);
    expect(continuesOutline([2, 1], [3])).toBe(true);
  });
  it("rejects list items and jumps", () => {
    expect(continuesOutline([2, 1], [1])).toBe(false);
    expect(continuesOutline([15], [5])).toBe(false);
    expect(continuesOutline([3, 1], [3, 4])).toBe(false);
    expect(continuesOutline([3, 1], [3, 1])).toBe(false);
  });
});

describe("longestChain", () => {
  it("drops an out-of-order impostor instead of letting it block later headings", () => {
    const orders = [[1], [2], [99], [3], [4], [5]].map((order) => ({ order }));
    expect(longestChain(orders, "increasing")).toEqual([0, 1, 3, 4, 5]);
  });
});

describe("sectionDocument splitting", () => {
  it("splits an oversized article into labelled parts at paragraph breaks", () => {
    const paragraph = (i: number) => body(`${i}. Paragraph ${i} sets out a detailed obligation for the financial entity concerned.`, { gapBefore: 1 });
    const doc = fixtureDoc([
      [
        { text: "Article 1", centred: true },
        { text: "Article 2", centred: true, gapBefore: 1 },
        { text: "Definitions", bold: true, centred: true },
        ...Array.from({ length: 60 }, (_, i) => paragraph(i + 1)),
        { text: "Article 3", centred: true, gapBefore: 1 },
        body("This Regulation shall enter into force on the twentieth day following its publication."),
      ],
    ]);
    const sections = sectionDocument(doc, "reg", { maxSectionChars: 2000 });
    const parts = sections.filter((s) => s.label.startsWith("Article 2"));
    expect(parts.length).toBeGreaterThan(2);
    expect(parts[1]?.label).toBe("Article 2 (part 2)");
    expect(parts.every((p) => p.text.length <= 2000 && p.heading === "Definitions")).toBe(true);
    expect(parts.every((p) => /^\d+\. Paragraph/.test(p.text))).toBe(true);
    expect(sections.map((s) => s.label).at(-1)).toBe("Article 3");
  });
});
