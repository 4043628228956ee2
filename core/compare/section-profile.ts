import { createHash } from "node:crypto";
import type { DocumentRecord } from "../model/store-records.ts";
import type { TripletRecord } from "../model/graph-records.ts";
import type { Section, SectionKind } from "../model/section-types.ts";
import { contentWords, lexicalTerms, type CompareLanguage } from "./compare-text.ts";
import { type EnglishStems, escapeRegExp } from "../text/index.ts";

// What a crosswalk knows about one section, read once per comparison: its words, the headings it
// sits under, the defined terms and obligation words it uses, and a hash of its content (the key
// of everything cached about it). Built from stored rows only: no model.

/**
 * Where a provision stands in its act: a recital explains, an article binds, an annex details, a
 * chapter's own text introduces what follows.
 */
export type SectionRole = "operative" | "recital" | "annex" | "introduction" | "other";

const ROLE: Record<SectionKind, SectionRole> = {
  document: "other",
  preamble: "recital",
  recital: "recital",
  book: "introduction",
  part: "introduction",
  subpart: "introduction",
  title: "introduction",
  chapter: "introduction",
  section: "operative",
  subsection: "operative",
  article: "operative",
  paragraph: "operative",
  point: "operative",
  rule: "operative",
  requirement: "operative",
  annex: "annex",
  appendix: "annex",
  heading: "other",
  chunk: "other",
};

/** Fewer content words than this and a section is a heading or a container, not a provision to align. */
export const MIN_CONTENT_WORDS = 5;

export interface SectionProfile {
  section: Section;
  document: DocumentRecord;
  language: CompareLanguage;
  role: SectionRole;
  /** The headings of its ancestors and its own, outermost first ("ICT risk management · Backup policies …"). */
  headingContext: string;
  /** Lexical terms of heading and body (compare-text.ts). */
  terms: string[];
  headingTerms: string[];
  /** Normalized defined terms (of either document compared) the section uses. */
  definedTerms: Set<string>;
  /** Words of its obligations: who, the action, what (e.g. "controller", "notify", "breach"). */
  obligationWords: Set<string>;
  triplets: TripletRecord[];
  /** sha256 of label, heading and text: equal hashes, equal content. */
  contentHash: string;
}

export function sectionRole(kind: SectionKind): SectionRole {
  return ROLE[kind] ?? "other";
}

export function sectionContentHash(section: Pick<Section, "label" | "heading" | "text">): string {
  return createHash("sha256").update(`${section.label}\u0000${section.heading}\u0000${section.text}`).digest("hex");
}

export function compareLanguage(document: Pick<DocumentRecord, "language">): CompareLanguage {
  return document.language === "it" ? "it" : "en";
}

/** Headings from the outermost ancestor down to the section itself, joined with " · ". */
export function headingContext(section: Section, byId: ReadonlyMap<string, Section>): string {
  const headings: string[] = [];
  const seen = new Set<string>();
  for (let s: Section | undefined = section; s !== undefined && !seen.has(s.id); s = s.parentId === null ? undefined : byId.get(s.parentId)) {
    seen.add(s.id);
    if (s.heading.trim() !== "") headings.unshift(s.heading.trim());
  }
  return headings.join(" · ");
}

/** Words an obligation triplet contributes: subject, the verb without its modal, object. */
export function obligationWordsOf(triplet: Pick<TripletRecord, "subject" | "predicate" | "object">, language: CompareLanguage, stems: EnglishStems): string[] {
  const verb = triplet.predicate.replace(/^(?:shall|must|may|should|can|cannot)\s+(?:not\s+)?(?:be\s+)?/i, "");
  return contentWords(`${triplet.subject} ${verb} ${triplet.object}`, language, stems);
}

/** A matcher for each defined term (plurals included), to find the terms a section uses. */
export function definedTermMatchers(terms: ReadonlyArray<{ term: string; normalizedTerm: string }>): Array<{ normalizedTerm: string; re: RegExp }> {
  const seen = new Set<string>();
  const out: Array<{ normalizedTerm: string; re: RegExp }> = [];
  for (const t of terms) {
    // One-word terms like "data" or "state" are everywhere: they say nothing about a match.
    if (seen.has(t.normalizedTerm) || t.term.trim().split(/\s+/).length < 2) continue;
    seen.add(t.normalizedTerm);
    out.push({ normalizedTerm: t.normalizedTerm, re: new RegExp(`(^|[^\\p{L}])${escapeRegExp(t.term.trim())}(s|es)?($|[^\\p{L}])`, "iu") });
  }
  return out;
}

export interface ProfileInput {
  document: DocumentRecord;
  sections: readonly Section[];
  triplets: readonly TripletRecord[];
  termMatchers: ReadonlyArray<{ normalizedTerm: string; re: RegExp }>;
  /** The comparisons' stem cache (core/text/stem-porter.ts). */
  stems: EnglishStems;
}

/** Profiles of a document's provisions (sections with at least MIN_CONTENT_WORDS words of text). */
export function profileDocument(input: ProfileInput): SectionProfile[] {
  const language = compareLanguage(input.document);
  const byId = new Map(input.sections.map((s) => [s.id, s]));
  const triplets = new Map<string, TripletRecord[]>();
  for (const t of input.triplets) {
    const list = triplets.get(t.sectionId);
    if (list) list.push(t);
    else triplets.set(t.sectionId, [t]);
  }
  const out: SectionProfile[] = [];
  for (const section of input.sections) {
    if (contentWords(section.text, language, input.stems).length < MIN_CONTENT_WORDS) continue;
    const context = headingContext(section, byId);
    const own = triplets.get(section.id) ?? [];
    const definedTerms = new Set<string>();
    for (const m of input.termMatchers) if (m.re.test(section.text) || m.re.test(section.heading)) definedTerms.add(m.normalizedTerm);
    out.push({
      section,
      document: input.document,
      language,
      role: sectionRole(section.kind),
      headingContext: context,
      terms: lexicalTerms(`${section.heading}\n${section.text}`, language, input.stems),
      headingTerms: lexicalTerms(context, language, input.stems),
      definedTerms,
      obligationWords: new Set(own.flatMap((t) => obligationWordsOf(t, language, input.stems))),
      triplets: own,
      contentHash: sectionContentHash(section),
    });
  }
  return out;
}
