import type { HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import { isBold, isLarger } from "./layout-stats.ts";

// Last-resort headings for documents without a numbering scheme: short lines printed bold or
// larger than the body. Larger type nests outside smaller type.

const MAX_HEADING_CHARS = 120;

export const styledDetector: HeadingDetector = {
  family: "styled",
  detect(line, ctx) {
    const { stats } = ctx;
    if (stats.plain) return undefined;
    const text = line.text;
    if (text.length > MAX_HEADING_CHARS || text.length < 3) return undefined;
    if (!isBold(line.line, stats) && !isLarger(line.line, stats)) return undefined;
    if (/[,;]$/.test(text) || !/^[\p{Lu}\d“"«(]/u.test(text) || (text.match(/\p{L}/gu) ?? []).length < 3) return undefined;
    const label = text.length > 80 ? `${text.slice(0, 77).trimEnd()}…` : text;
    const candidate: HeadingCandidate = {
      kind: "heading",
      label,
      rank: 100 - Math.round(line.line.fontSize),
      inlineTitle: text,
      titleMode: "next-lines",
      group: "styled",
    };
    return candidate;
  },
};
