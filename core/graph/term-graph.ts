import { escapeRegExp } from "../text/index.ts";
import { runToEnd, type GraphSteps } from "./graph-steps.ts";
import { createHash } from "node:crypto";
import { findDefinitions } from "../extract/definitions.ts";
import type { TermRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";

/** Sections listed per term: enough to navigate, bounded for terms used everywhere ("data"). */
const MAX_MENTIONS = 50;

/** Terms a document defines, where it defines them, and which of its sections use them. */
export function buildTerms(documentId: string, sections: readonly Section[], language: "en" | "it"): TermRecord[] {
  return runToEnd(termSteps(documentId, sections, language));
}

/** buildTerms, yielding after each section (graph-steps.ts). */
export function* termSteps(documentId: string, sections: readonly Section[], language: "en" | "it"): GraphSteps<TermRecord[]> {
  const byTerm = new Map<string, TermRecord>();
  for (const section of sections) {
    yield;
    for (const d of findDefinitions(section.text, language)) {
      // The first definition of a term wins: later ones are usually amendments quoting it.
      if (d.normalizedTerm.length < 2 || byTerm.has(d.normalizedTerm)) continue;
      byTerm.set(d.normalizedTerm, {
        id: createHash("sha256").update(`${documentId}\u0000${d.normalizedTerm}`).digest("hex").slice(0, 24),
        documentId,
        term: d.term,
        normalizedTerm: d.normalizedTerm,
        definition: d.definition,
        sectionId: section.id,
        start: d.span.start,
        end: d.span.end,
        mentionedIn: [],
      });
    }
  }
  for (const term of byTerm.values()) {
    yield;
    // Plurals count as uses: "operators" uses the term "operator".
    const re = new RegExp(`(^|[^\\p{L}])${escapeRegExp(term.term)}(s|es)?($|[^\\p{L}])`, "iu");
    for (const section of sections) {
      if (term.mentionedIn.length >= MAX_MENTIONS) break;
      if (section.id !== term.sectionId && re.test(section.text)) term.mentionedIn.push(section.id);
    }
  }
  return [...byTerm.values()];
}
