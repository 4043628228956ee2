import type { DetectContext, HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import type { FlowLine } from "./flow.ts";

// Decimal outlines ("3", "3.1", "3.1.2" with or without trailing dots) used by NIST, tender
// documents and rulebooks. Numbered list items look the same, so the scanner only accepts a
// number that continues the outline (see sequence "successor") and, in PDFs, is printed as a
// heading; here we reject what cannot be a title: lowercase starts, list punctuation.

const NUMBERED = /^(\d{1,2}(?:\.\d{1,3}){0,4})(\.?)\s+(\S.*)$/;

export const NUMBERED_BASE_RANK = 10;

function prefix(language: string): string {
  return language === "it" ? "Par." : "Section";
}

function numbered(f: FlowLine, ctx: DetectContext): HeadingCandidate | undefined {
  const m = NUMBERED.exec(f.text);
  if (m === null) return undefined;
  const number = m[1] ?? "";
  const title = (m[3] ?? "").trim();
  // A title starts like one; list items end like list items.
  if (!/^[\p{Lu}\d“"'(«]/u.test(title) || /[;,]$/.test(title)) return undefined;
  // "1 January 2024", "3 months": a number followed by running text is not an outline entry.
  const parts = number.split(".").map(Number);
  if (parts.length === 1 && m[2] === "" && !ctx.stats.plain && !/^\p{Lu}/u.test(title)) return undefined;
  return {
    kind: parts.length === 1 ? "section" : "subsection",
    label: `${prefix(ctx.language)} ${number}`,
    rank: NUMBERED_BASE_RANK + parts.length,
    inlineTitle: title,
    titleMode: "next-lines",
    group: `num-${parts.length}`,
    order: parts,
    sequence: "successor",
    sequenceKey: "outline",
    needsStyle: true,
    requirementIfSentence: parts.length >= 3,
  };
}

export const numberedDetector: HeadingDetector = {
  family: "numbered",
  detect(line, ctx) {
    return numbered(line, ctx);
  },
};
