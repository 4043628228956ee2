import type { FlowLine } from "./flow.ts";
import type { DetectContext, HeadingDetector } from "./heading-types.ts";
import { detectRaw } from "./heading-scanner.ts";
import { euDetector } from "./eu-heading.ts";
import { cfrDetector } from "./cfr-heading.ts";
import { italianDetector } from "./italian-heading.ts";
import { fedregDetector } from "./fedreg-heading.ts";
import { nistDetector } from "./nist-heading.ts";
import { numberedDetector } from "./numbered-heading.ts";
import { styledDetector } from "./styled-heading.ts";
import { isStyled } from "./layout-stats.ts";

// Which heading families a document uses, judged from what it contains: a handful of matches of
// a family's distinctive patterns turns that family on. Families combine (a Federal Register
// notice carries captions and CFR sections; NIST uses chapters and decimal numbers).

export interface Profile {
  detectors: HeadingDetector[];
  /** True when no family matched: styled headings and size-bounded chunks. */
  fallback: boolean;
}

/** Families in priority order: when two match one line, the earlier one wins. */
const FAMILIES: ReadonlyArray<{ detector: HeadingDetector; groups: string[]; min: number }> = [
  { detector: euDetector, groups: ["eu-article"], min: 3 },
  { detector: cfrDetector, groups: ["cfr-section"], min: 3 },
  { detector: italianDetector, groups: ["it-article", "it-libro", "it-parte", "it-titolo"], min: 3 },
  { detector: fedregDetector, groups: ["fr-caption"], min: 2 },
  { detector: nistDetector, groups: ["nist-chapter", "nist-appendix", "nist-task"], min: 2 },
  { detector: numberedDetector, groups: ["num-1", "num-2", "num-3", "num-4", "num-5"], min: 3 },
];

/**
 * A short act may have only "Article 1" and "Article 2": fewer matches than a family needs, but a
 * numbering that starts at 1 and runs on without a gap is structure, not a stray citation.
 */
function opensNumbering(candidates: ReadonlyArray<{ order?: number[] | undefined; group: string }>): boolean {
  const firsts = candidates.map((c) => c.order?.[0]);
  if (firsts.length < 2 || new Set(candidates.map((c) => c.group)).size !== 1) return false;
  return firsts.every((n, i) => n === i + 1);
}

/** Share of characters a styled-heading fallback may claim before styling stops meaning "heading". */
const MAX_STYLED_SHARE = 0.3;

export function chooseProfile(lines: readonly FlowLine[], ctx: DetectContext): Profile {
  const active: HeadingDetector[] = [];
  for (const family of FAMILIES) {
    const raw = detectRaw(lines, [family.detector], ctx);
    const relevant = raw.filter((r) => family.groups.includes(r.candidate.group));
    const counted = family.detector === numberedDetector && !ctx.stats.plain ? relevant.filter((r) => isStyled(r.line.line, ctx.stats)) : relevant;
    // Plain text has no styling to tell a numbered heading from a numbered paragraph.
    if (family.detector === numberedDetector && ctx.stats.plain) continue;
    if (counted.length >= family.min || opensNumbering(counted.map((r) => r.candidate))) active.push(family.detector);
    // A Federal Register rule amends the CFR in its last pages: one "§ 39.13" is enough there.
    else if (family.detector === cfrDetector && counted.length > 0 && detectRaw(lines, [fedregDetector], ctx).length >= 2) {
      active.push(family.detector);
    }
  }
  if (active.length > 0) {
    // EU "Article N", CFR "§" or Italian "Articolo" structure makes numbered headings list items.
    const legal = active.some((d) => d === euDetector || d === cfrDetector || d === italianDetector);
    return { detectors: legal ? active.filter((d) => d !== numberedDetector) : active, fallback: false };
  }
  // Measured in characters: headings are short, so a real heading set stays a small share even
  // in a short document, while a table printed in bold does not.
  const styled = detectRaw(lines, [styledDetector], ctx);
  const styledChars = styled.reduce((n, r) => n + r.line.text.length, 0);
  const allChars = lines.reduce((n, l) => n + l.text.length, 0);
  const useStyled = styled.length > 0 && styledChars <= allChars * MAX_STYLED_SHARE;
  return { detectors: useStyled ? [styledDetector] : [], fallback: true };
}
