import { distinctEntries, findInstrumentMentions, foldWords, instrumentForAlias, withContained, type InstrumentMention } from "../names/instrument-names.ts";
import type { InstrumentEntry } from "../names/instrument-registry.ts";
import { questionNames } from "./question-names.ts";

// Which imported documents a question names, and which known instruments it names that no
// imported document is. A document is named through its aliases (the registry's, found at
// import, and the user's): "under DORA" names the document whose aliases include "DORA" or any
// other name of that instrument ("Regulation (EU) 2022/2554"); a name that is not in the
// registry ("the Mauriziano tender", a user's alias) is matched as words; a long title as written.

export interface ScopeDocument {
  id: string;
  title: string;
  aliases: readonly string[];
}

export interface DocumentScope {
  documentIds: string[];
  /** Instruments named, as written. */
  instruments: string[];
  /** Display names of the named instruments no imported document is. */
  missingInstruments: string[];
  /**
   * Names the question gives (acronyms, titled acts: question-names.ts) that neither the registry
   * nor any document's aliases settle: whether the library mentions them is left to a search.
   */
  otherNames: string[];
}

/** A document's title counts as named only when long enough not to be a common phrase. */
const MIN_TITLE_WORDS = 3;

// Alias → instrument lookups repeat for every question over the same library.
const ALIAS_ENTRY = new Map<string, InstrumentEntry | null>();
function entryOfAlias(alias: string): InstrumentEntry | null {
  let entry = ALIAS_ENTRY.get(alias);
  if (entry === undefined) {
    entry = instrumentForAlias(alias) ?? null;
    if (ALIAS_ENTRY.size > 10_000) ALIAS_ENTRY.clear();
    ALIAS_ENTRY.set(alias, entry);
  }
  return entry;
}

function covers(mention: string, name: string): boolean {
  const a = foldWords(mention);
  const b = foldWords(name);
  return a.includes(b) || b.includes(a);
}

export function documentScope(question: string, documents: readonly ScopeDocument[], mentions: readonly InstrumentMention[] = findInstrumentMentions(question)): DocumentScope {
  const named = distinctEntries(mentions);
  const words = foldWords(question);
  const inScope = new Set<string>();
  const satisfied = new Set<string>();
  const aliasTexts: string[] = [];
  for (const doc of documents) {
    const entries = new Set<string>();
    for (const alias of doc.aliases) {
      const entry = entryOfAlias(alias);
      if (entry !== null) entries.add(entry.id);
      else {
        aliasTexts.push(alias);
        if (foldWords(alias).trim() !== "" && words.includes(foldWords(alias))) inScope.add(doc.id);
      }
    }
    // A question naming an instrument reaches the documents that are it or a part of it
    // ("under HIPAA" reaches a text of the Security Rule alone).
    for (const entry of named) {
      if (withContained(entry).some((e) => entries.has(e.id))) {
        inScope.add(doc.id);
        satisfied.add(entry.id);
      }
    }
    if (doc.title.split(/\s+/).length >= MIN_TITLE_WORDS && words.includes(foldWords(doc.title))) inScope.add(doc.id);
  }
  const otherNames = questionNames(question)
    .map((n) => n.text)
    .filter((name) => !mentions.some((m) => covers(m.text, name)) && !aliasTexts.some((alias) => covers(alias, name)));
  return {
    documentIds: documents.filter((d) => inScope.has(d.id)).map((d) => d.id),
    instruments: [...new Set(mentions.map((m) => m.text))],
    missingInstruments: named.filter((e) => !satisfied.has(e.id)).map((e) => e.display),
    otherNames,
  };
}
