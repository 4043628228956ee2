import { foldAccents } from "../../names/instrument-names.ts";
import { PARTIES, escapeRegExp } from "../../text/index.ts";

// The parties a question names ("controller", "financial entity", "covered entity", "stazione
// appaltante"), in the canonical form the answer looks for: the table's parties asked about, each
// by any of its forms (core/text/parties.ts). Overlapping matches keep the longest ("critical ICT
// third-party service provider" is not also "ICT third-party service provider").

interface PartyPattern {
  canonical: string;
  re: RegExp;
}

function escape(text: string): string {
  return escapeRegExp(text).replace(/[- ]/g, "[- ]");
}

/**
 * Acronyms and capitalised names ("DPO", "Member State", "Commission") are matched in their case;
 * roles in any case. Word edges are ASCII (the text's accents are folded first): `\p{L}` classes
 * made V8 spend seconds compiling a hundred patterns at the first question (measured).
 */
const PATTERNS: PartyPattern[] = PARTIES.filter((party) => party.question).flatMap(({ forms }) =>
  forms.map((form) => ({
    canonical: forms[0] ?? "",
    re: new RegExp(`(?<![A-Za-z0-9])${escape(form)}(?![A-Za-z0-9])`, /\p{Lu}/u.test(form) ? "g" : "gi"),
  })),
);

/** Canonical parties the question names, in order of appearance. */
export function questionParties(question: string): string[] {
  const found: Array<{ canonical: string; start: number; end: number }> = [];
  // Accents folded in place (one character each), so "responsabilità" ends at a word edge.
  const text = foldAccents(question);
  for (const { canonical, re } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) found.push({ canonical, start: m.index, end: m.index + m[0].length });
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: typeof found = [];
  for (const f of found) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  kept.sort((a, b) => a.start - b.start);
  return [...new Set(kept.map((k) => k.canonical))];
}
