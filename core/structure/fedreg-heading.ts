import type { HeadingCandidate, HeadingDetector } from "./heading-types.ts";

// Federal Register documents open with run-in captions ("AGENCY: Federal Aviation
// Administration", "SUMMARY: The FAA proposes …"); the caption is the section, the rest of the
// line is already its text. The amendatory part ("PART 39", "§ 39.13") is left to the CFR detector.

const CAPTIONS = [
  "AGENCY",
  "ACTION",
  "SUMMARY",
  "DATES",
  "ADDRESSES",
  "FOR FURTHER INFORMATION CONTACT",
  "SUPPLEMENTARY INFORMATION",
  "EFFECTIVE DATE",
  "COMPLIANCE DATE",
];

const CAPTION = new RegExp(`^(${CAPTIONS.join("|")}):\\s*`);

export const FEDREG_RANK = 1;

function caption(text: string): HeadingCandidate | undefined {
  const m = CAPTION.exec(text);
  if (m === null) return undefined;
  const name = m[1] ?? "";
  return {
    kind: "heading",
    label: name.charAt(0) + name.slice(1).toLowerCase(),
    rank: FEDREG_RANK,
    inlineTitle: "",
    titleMode: "run-in",
    runInPrefix: m[0].length,
    group: "fr-caption",
  };
}

export const fedregDetector: HeadingDetector = {
  family: "fedreg",
  detect(line) {
    return caption(line.text);
  },
};
