import { findInstruments } from "../extract/instruments.ts";
import { documentInstruments } from "../names/document-instruments.ts";
import { identifierKey } from "../names/instrument-keys.ts";
import type { Section } from "../model/section-types.ts";
import { OUTLINE_OPENING_SECTIONS } from "../model/section-types.ts";

// The names other documents cite this one by, for resolving their citations. Only what the
// document says about itself counts: the instrument in its title ("Regulation (EU) 2022/2554"),
// for CFR texts the CFR title its opening names ("45 CFR"), and the short names and EU numbers
// the instrument registry (core/names/) knows it by — the GDPR's Council position prints
// "2016/…" for its number, yet DORA's citations of "Regulation (EU) 2016/679" are to it.
// Instruments merely mentioned in a preamble are other acts. The questions' matching of
// documents uses the registry through the stored aliases (core/answer/question/question-scope.ts).
const CFR_TITLE = /\b(\d{1,2})\s*CFR\b/;

export function documentAliases(title: string, sections: ReadonlyArray<Pick<Section, "label" | "heading" | "text">>): string[] {
  const aliases = new Set<string>([title]);
  for (const m of findInstruments(title)) aliases.add(m.instrument);
  if (sections.some((s) => s.label.startsWith("§ "))) {
    const opening = sections
      .slice(0, OUTLINE_OPENING_SECTIONS)
      .map((s) => `${s.heading} ${s.text.slice(0, 2000)}`)
      .join(" ");
    const cfr = CFR_TITLE.exec(`${title} ${opening}`);
    if (cfr) aliases.add(`${cfr[1]} CFR`);
  }
  // The title alone: a first section citing another act must not make this document its target.
  for (const { entry, contained } of documentInstruments(title, [])) {
    if (contained) continue;
    const name = entry.names[0];
    if (name !== undefined) aliases.add(name);
    // EU numbers only: a CFR part key ("45 CFR Part 164") would make a guide about the rule a
    // target of the rule's own citations.
    for (const identifier of entry.identifiers) if (/^(?:regulation|directive|decision):/.test(identifierKey(identifier) ?? "")) aliases.add(identifier);
  }
  return [...aliases];
}
