import type { Section } from "../model/section-types.ts";
import { findInstrumentMentions, withContained } from "./instrument-names.ts";
import type { InstrumentEntry } from "./instrument-registry.ts";

// Which registry instruments an imported document is (or is about), read from what it says of
// itself: its title and the start of its first section ("REGULATION (EU) 2022/2554 OF THE
// EUROPEAN PARLIAMENT…", "HIPAA Administrative Simplification Regulation Text 45 CFR Parts 160,
// 162, and 164", "NIST Special Publication 800-171 Revision 2"). A title that names an instrument
// it applies ("… ai sensi del D.Lgs. 36/2023", NIST's guide to the "HIPAA Security Rule") makes the
// document one an auditor reaches by that name too. Acts a title amends or repeals are not it:
// DORA's title lists five regulations it amends.

/** Characters of the first section read with the title: the cover of a NIST publication, the heading of an OJ act. */
const HEAD_CHARS = 600;
const AMENDING = /\b(?:amending|repealing|che modifica|che abroga|recante modifica)\b/gi;
/** How far an amending clause reaches: the list of acts after "amending". */
const AMENDING_REACH = 300;

export interface DocumentInstrument {
  entry: InstrumentEntry;
  /** True when found through a containing instrument (HIPAA → its Security Rule). */
  contained: boolean;
}

/**
 * Sections that are front matter (a cover, an OJ heading): an operative first article citing
 * "Article 33 of Regulation (EU) 2016/679" is not the GDPR.
 */
const FRONT_MATTER = new Set<Section["kind"]>(["document", "preamble", "chunk"]);

function head(title: string, sections: readonly Section[]): string {
  const first = sections[0];
  const opening = first === undefined || !FRONT_MATTER.has(first.kind) ? "" : `${first.heading} ${first.text}`.slice(0, HEAD_CHARS);
  return `${title}\n${opening}`;
}

/** The instruments a document is or is about, each with those it contains. */
export function documentInstruments(title: string, sections: readonly Section[]): DocumentInstrument[] {
  const text = head(title, sections);
  const amended: Array<[number, number]> = [...text.matchAll(AMENDING)].map((m) => [m.index, m.index + AMENDING_REACH]);
  const out = new Map<string, DocumentInstrument>();
  for (const m of findInstrumentMentions(text, { titlePhrases: true })) {
    if (m.by === "identifier" && amended.some(([from, to]) => m.start >= from && m.start < to)) continue;
    // Only a document that is the instrument (its number or official title) is also every part
    // of it: NIST's guide names "HIPAA" in its title, and is not thereby the Privacy Rule.
    for (const entry of m.by === "name" ? [m.entry] : withContained(m.entry)) {
      const contained = entry.id !== m.entry.id;
      const known = out.get(entry.id);
      if (known === undefined || (known.contained && !contained)) out.set(entry.id, { entry, contained });
    }
  }
  return [...out.values()];
}

/** "Federal Aviation Administration (FAA), DOT.": the agency's acronym in brackets. */
const AGENCY_ACRONYM = /\(([A-Z][A-Za-z]{1,9})\)/;

/**
 * Rule "a Federal Register document answers to its agency's acronym": its "AGENCY:" caption (the
 * section core/structure/fedreg-heading.ts labels "Agency") names the issuer with its acronym,
 * "Federal Aviation Administration (FAA), DOT." or "Office for Civil Rights (OCR), HHS.", and an
 * auditor names the rule by it ("the proposed FAA directive").
 */
export function agencyAliases(sections: readonly Section[]): string[] {
  const agency = sections.find((s) => s.label === "Agency");
  const acronym = agency === undefined ? undefined : AGENCY_ACRONYM.exec(agency.text)?.[1];
  return acronym === undefined ? [] : [acronym];
}

/**
 * The aliases stored with a document: for each instrument, its short name and its first official
 * identifier ("DORA", "Regulation (EU) 2022/2554"), and a Federal Register document's agency
 * (agencyAliases). Every other name of the same instrument is found through the registry when a
 * question is read, so two per instrument are enough.
 */
export function registryAliases(title: string, sections: readonly Section[]): string[] {
  const out = new Set<string>(agencyAliases(sections));
  for (const { entry } of documentInstruments(title, sections)) {
    const name = entry.names[0];
    if (name !== undefined) out.add(name);
    const identifier = entry.identifiers[0];
    if (identifier !== undefined) out.add(identifier);
  }
  return [...out];
}
