import { collapse } from "../instruments.ts";
import { parseChain, type Chain } from "./chain.ts";
import { DOTTED, PIN, sticky } from "./lexicon.ts";
import type { CrossReferenceContext, Phrase } from "./types.ts";

// "45 CFR 164.316", "45 CFR part 160", "26 U.S.C. 6011(b)", "GEN Rule 5.5.1": the instrument
// comes first and the unit follows, sometimes without a keyword.
const CFR_PREFIX = /(\d{1,2})\s+(?:CFR|C\.F\.R\.)\s+/y;
const USC_PREFIX = /(\d{1,2})\s+U\.?S\.?C\.?\s+/y;
const RULEBOOK_PREFIX = /([A-Z]{2,5})\s+(?=Rules?\s+\d)/y;
const BARE_SECTION = new RegExp(`(${DOTTED}|\\d{1,5}[a-z]?)(${PIN})`, "y");

export function parsePrefixed(text: string, start: number, ctx: Required<CrossReferenceContext>): Chain | null {
  const rulebook = sticky(RULEBOOK_PREFIX, text, start);
  if (rulebook) {
    const chain = parseChain(text, start + rulebook[0].length, { ...ctx, language: "en" });
    return chain ? { ...chain, instrument: { name: rulebook[1] ?? "", anaphoric: false } } : null;
  }
  const cfr = sticky(CFR_PREFIX, text, start);
  const usc = cfr ? null : sticky(USC_PREFIX, text, start);
  const prefix = cfr ?? usc;
  if (!prefix) return null;
  const name = cfr ? `${prefix[1] ?? ""} CFR` : `${prefix[1] ?? ""} U.S.C.`;
  const at = start + prefix[0].length;
  const withKeyword = parseChain(text, at, { ...ctx, language: "en" });
  if (withKeyword) return { ...withKeyword, instrument: { name, anaphoric: false } };
  // Keyword-less "45 CFR 164.316": the number is a § (CFR) or a section (U.S.C.).
  const bare = sticky(BARE_SECTION, text, at);
  if (!bare) return { ordered: [], end: start + collapse(prefix[0]).length, instrument: { name, anaphoric: false } };
  const phrase: Phrase = { kind: "paragraph-sign", items: [{ value: bare[1] ?? "", pin: bare[2] ?? "" }] };
  return { ordered: [phrase], end: at + bare[0].length, instrument: { name, anaphoric: false } };
}
