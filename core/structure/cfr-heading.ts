import type { HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import { cleanInlineTitle } from "./heading-types.ts";
import type { FlowLine } from "./flow.ts";

// US Code of Federal Regulations: PART 164—TITLE > Subpart C—Title > "§ 164.308 Administrative
// safeguards." The section sign with a number and a title opens a section; "§ 164.308(a)" inside
// running text is a citation (the scanner's style vote rejects unstyled lines in PDFs).

const PART = /^PART\s+(\d{1,4})\s*(?:[—–-]\s*(.*))?$/;
const SUBPART = /^(Subparts?)\s+([A-Z]{1,2})(?:\s*[-–—]\s*([A-Z]{1,2}))?\s*(?:[—–-]\s*(.*)|(\[Reserved\]))?$/;
const SECTION = /^§\s*(\d{1,4})\.(\d{1,4})([a-z]?)\s+(.*)$/;

export const CFR_RANK = { part: 1, subpart: 2, section: 3 } as const;

function part(f: FlowLine): HeadingCandidate | undefined {
  const m = PART.exec(f.text);
  if (m === null) return undefined;
  return {
    kind: "part",
    label: `Part ${m[1]}`,
    rank: CFR_RANK.part,
    inlineTitle: cleanInlineTitle(m[2] ?? ""),
    titleMode: "next-lines",
    group: "cfr-part",
    order: [Number(m[1])],
    sequence: "increasing",
  };
}

function subpart(f: FlowLine): HeadingCandidate | undefined {
  const m = SUBPART.exec(f.text);
  if (m === null) return undefined;
  const from = m[2] ?? "";
  const to = m[3];
  const letter = (s: string): number => s.split("").reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0);
  return {
    kind: "subpart",
    label: to === undefined ? `Subpart ${from}` : `Subparts ${from}-${to}`,
    rank: CFR_RANK.subpart,
    inlineTitle: cleanInlineTitle(m[4] ?? m[5] ?? ""),
    titleMode: "next-lines",
    group: "cfr-subpart",
    order: [letter(from)],
    sequence: "increasing",
    scope: "parent",
  };
}

function section(f: FlowLine): HeadingCandidate | undefined {
  const m = SECTION.exec(f.text);
  if (m === null) return undefined;
  const rest = m[4] ?? "";
  // "§ 164.308 and § 164.310 apply…": a citation list, not a title.
  if (/^(and|or|of|to|through|in)\b/.test(rest)) return undefined;
  const suffix = m[3] ?? "";
  return {
    kind: "section",
    label: `§ ${m[1]}.${m[2]}${suffix}`,
    rank: CFR_RANK.section,
    inlineTitle: cleanInlineTitle(rest),
    titleMode: "next-lines",
    group: "cfr-section",
    order: [Number(m[1]), Number(m[2]), suffix.length === 0 ? 0 : suffix.charCodeAt(0) - 96],
    sequence: "increasing",
    needsStyle: true,
  };
}

export const cfrDetector: HeadingDetector = {
  family: "cfr",
  detect(line) {
    return section(line) ?? part(line) ?? subpart(line);
  },
};
