import { findInstruments } from "../extract/instruments.ts";
import type { Section } from "../structure/types.ts";

// The names other documents cite this one by. Only what the document says about itself counts: the
// instrument in its title ("Regulation (EU) 2022/2554") and, for CFR texts, the CFR title its
// opening names ("45 CFR"). Instruments merely mentioned in a preamble are other acts.
const CFR_TITLE = /\b(\d{1,2})\s*CFR\b/;
const COMMON_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/\b2016\/679\b/, "GDPR"],
  [/\b2022\/2554\b/, "DORA"],
  [/\bHIPAA\b/i, "HIPAA"],
];

export function documentAliases(title: string, sections: readonly Section[]): string[] {
  const aliases = new Set<string>([title]);
  for (const m of findInstruments(title)) aliases.add(m.instrument);
  if (sections.some((s) => s.label.startsWith("§ "))) {
    const opening = sections
      .slice(0, 5)
      .map((s) => `${s.heading} ${s.text.slice(0, 2000)}`)
      .join(" ");
    const cfr = CFR_TITLE.exec(`${title} ${opening}`);
    if (cfr) aliases.add(`${cfr[1]} CFR`);
  }
  for (const [re, name] of COMMON_NAMES) if (re.test(title)) aliases.add(name);
  return [...aliases];
}
