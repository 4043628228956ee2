import { distinctEntries, findInstrumentMentions, foldWords, withContained, type InstrumentMention } from "../../names/instrument-names.ts";
import { identifierKey } from "../../names/instrument-keys.ts";
import type { InstrumentEntry } from "../../names/instrument-registry.ts";
import type { LanguageResources } from "../language-resources.ts";
import { memoized } from "../../text/index.ts";
import { questionNames, type QuestionName } from "./question-names.ts";

// Which imported documents a question names, and which known instruments it names that no
// imported document is. A document is named through its aliases (the registry's, found at
// import, and the user's): "under DORA" names the document whose aliases include "DORA" or any
// other name of that instrument ("Regulation (EU) 2022/2554"); a name that is not in the
// registry ("the Mauriziano tender", a user's alias) is matched as words; a long title as written.

export interface ScopeDocument {
  id: string;
  title: string;
  aliases: readonly string[];
  /** The imported file's name: tender documents are named by what they are ("disciplinare", "capitolato"). */
  fileName?: string;
}

export interface DocumentScope {
  documentIds: string[];
  /**
   * Parts of a named document the question is about: "the HIPAA Security Rule" is Subpart C of
   * 45 CFR Part 164 inside the imported HIPAA text, as section path labels ["Part 164", "Subpart C"].
   */
  parts: Array<{ documentId: string; path: string[] }>;
  /** Instruments named, as written. */
  instruments: string[];
  /** Display names of the named instruments no imported document is. */
  missingInstruments: string[];
  /**
   * Names the question gives (acronyms, titled acts: question-names.ts) that neither the registry
   * nor any document's aliases settle: whether the library mentions them is left to a search.
   */
  otherNames: QuestionName[];
}

/**
 * The kinds of document a tender is made of, as an auditor names them ("secondo il disciplinare",
 * "nel capitolato tecnico"): a question naming one is asked of the documents whose title or file
 * name says they are one. The official titles of these documents are the tender's, shared by all.
 */
const DOCUMENT_KINDS = [
  "disciplinare",
  "capitolato",
  "bando",
  "lettera d invito",
  "avviso",
  "allegato",
  "schema di contratto",
  "tender specifications",
  "terms of reference",
];

/**
 * "secure hosting standards such as ISO27001", "international laws, such as GDPR": an instrument
 * given as an example of what the question asks about is not its subject, so the library is not
 * refused for lacking it. ObliQA dev: questions were refused this way ("No imported document is
 * ISO/IEC 27001") though the rulebooks they ask about answer them; one asking how to apply
 * ISO27001 itself still is.
 */
const AS_EXAMPLE = /(?:\bsuch as|\be\.g\.,?|\bfor (?:example|instance),?|\blike|\bincluding|\bad esempio)\s+(?:the\s+|il\s+|la\s+|lo\s+)?$/i;

/** A document's title counts as named only when long enough not to be a common phrase. */
const MIN_TITLE_WORDS = 3;

function covers(mention: string, name: string): boolean {
  const a = foldWords(mention);
  const b = foldWords(name);
  return a.includes(b) || b.includes(a);
}

/**
 * What a document is, as opposed to what it is about: the instrument of its first registry alias
 * (the title's own number or name comes first: "NIST SP 800-66 Revision 1, … Guide for Implementing
 * the HIPAA Security Rule" is SP 800-66) and every instrument that one contains.
 */
function identityOf(aliases: readonly string[], resources: LanguageResources): Set<string> {
  for (const alias of aliases) {
    // Alias → instrument lookups repeat for every question over the same library: the engine remembers them.
    const entry = resources.instrumentOfAlias(alias);
    if (entry !== null) return new Set(withContained(entry).map((e) => e.id));
  }
  return new Set();
}

/** Section path labels of a CFR part or subpart an instrument is ("cfr:45/164/C" → ["Part 164", "Subpart C"]). */
function partPath(entry: InstrumentEntry): string[] | null {
  for (const identifier of entry.identifiers) {
    const m = /^cfr:\d+\/(\d+)\/([A-Z])$/.exec(identifierKey(identifier) ?? "");
    if (m !== null) return [`Part ${m[1] ?? ""}`, `Subpart ${m[2] ?? ""}`];
  }
  return null;
}

interface DocumentNames {
  doc: ScopeDocument;
  /** Its aliases outside the registry, folded (none empty). */
  ownAliases: string[];
  /** Its title and file name, folded. */
  own: string;
  /** Its title folded, when long enough to name it. */
  title: string | null;
  /** Registry instruments among its aliases. */
  entries: Set<string>;
  /** The instruments it is (identityOf); the rest of `entries` it is about. */
  identity: Set<string>;
}

/**
 * Words before a name that make it the instrument a question is asked under ("under PCI DSS", "per
 * FINRA", "ai sensi del …"), or the issuer asked what it says ("How does NIST define …").
 */
const GOVERNED_BY =
  /(?:\b(?:under|per|pursuant to|according to|required by|in line with|compliant with|comply with|complies with|does|do|did|would|will|should|ai sensi d\S*|secondo|in base a\S*)\s+(?:the\s+|il\s+|la\s+|lo\s+|l['’]\s*)?|['’]s\s+)$/i;
/** Words after a name that make it an instrument or a regime ("SOX 404", "FINRA Rule 4511", "GLBA requirements"). */
const INSTRUMENT_AFTER =
  /^\s*(?:\d|act\b|acts\b|rules?\b|regulations?\b|directives?\b|standards?\b|framework\b|code\b|laws?\b|requirements?\b|guidelines?\b|compliance\b|regime\b|testing\b|audit\b)/i;

/**
 * Rule "an incidental acronym is not the question's subject": "CCTV", "FBI", "HR", "EHR" name
 * things in the auditor's world, not documents; a question is refused for lacking such a name only
 * where it stands as an instrument does: after "under", "per", "according to", or before "Act",
 * "Rule", a number. Names with digits or titles ("ISO 9001", "Consumer Duty Act") are always kept.
 */
function incidentalAcronym(question: string, name: QuestionName): boolean {
  if (name.kind !== "acronym" || /\d/.test(name.text)) return false;
  const at = question.indexOf(name.text);
  if (at < 0) return false;
  const before = question.slice(Math.max(0, at - 40), at);
  const after = question.slice(at + name.text.length).replace(/^s\b/, "");
  return !GOVERNED_BY.test(before) && !INSTRUMENT_AFTER.test(after);
}

/**
 * Documents' names folded once, not at every question: a library of hundreds of documents folded
 * thousands of names per question. Bounded like the stem memo.
 */
const foldName = memoized(foldWords);

/**
 * What every question reads of the library's names, folded once per document list: a search of a
 * library of hundreds of documents folded and looked up every alias again. The list handed in by
 * the engine stays the same object until the library changes (EngineContext.libraryNames).
 */
const libraryNamesMemo = new WeakMap<readonly ScopeDocument[], { resources: LanguageResources; library: DocumentNames[]; aliasTexts: string[] }>();
function namesOfLibrary(documents: readonly ScopeDocument[], resources: LanguageResources): { library: DocumentNames[]; aliasTexts: string[] } {
  const known = libraryNamesMemo.get(documents);
  if (known !== undefined && known.resources === resources) return known;
  const aliasTexts: string[] = [];
  const library = documents.map((doc): DocumentNames => {
    const entries = new Set<string>();
    const ownAliases: string[] = [];
    for (const alias of doc.aliases) {
      const entry = resources.instrumentOfAlias(alias);
      if (entry !== null) entries.add(entry.id);
      else {
        aliasTexts.push(alias);
        const folded = foldName(alias);
        if (folded.trim() !== "") ownAliases.push(folded);
      }
    }
    return {
      doc,
      entries,
      identity: identityOf(doc.aliases, resources),
      ownAliases,
      own: foldName(`${doc.title} ${(doc.fileName ?? "").replace(/\.[a-z0-9]+$/i, "")}`),
      title: doc.title.split(/\s+/).length >= MIN_TITLE_WORDS ? foldName(doc.title) : null,
    };
  });
  libraryNamesMemo.set(documents, { resources, library, aliasTexts });
  return { library, aliasTexts };
}

export function documentScope(
  question: string,
  documents: readonly ScopeDocument[],
  resources: LanguageResources,
  mentions: readonly InstrumentMention[] = findInstrumentMentions(question),
): DocumentScope {
  const named = distinctEntries(mentions);
  const words = foldWords(question);
  const inScope = new Set<string>();
  const satisfied = new Set<string>();
  const { library, aliasTexts } = namesOfLibrary(documents, resources);
  for (const { doc, ownAliases, own, title } of library) {
    if (ownAliases.some((alias) => words.includes(alias))) inScope.add(doc.id);
    if (DOCUMENT_KINDS.some((kind) => words.includes(` ${kind} `) && own.includes(` ${kind} `))) inScope.add(doc.id);
    if (title !== null && words.includes(title)) inScope.add(doc.id);
  }
  // A question naming an instrument reaches the documents that are it or a part of it ("under
  // HIPAA" reaches a text of the Security Rule alone). Documents only about it (NIST's guide to
  // implementing the HIPAA Security Rule) are reached when none is it: with the regulation and
  // the guide imported, "under the HIPAA Security Rule" is answered from the regulation (the
  // labelled questions were often answered from the guide's crosswalk tables before).
  const reached = new Map<string, { is: string[]; about: string[] }>();
  for (const entry of named) {
    const parts = withContained(entry).map((e) => e.id);
    const is: string[] = [];
    const about: string[] = [];
    for (const { doc, entries, identity } of library) {
      if (!parts.some((id) => entries.has(id))) continue;
      (parts.some((id) => identity.has(id)) ? is : about).push(doc.id);
    }
    reached.set(entry.id, { is, about });
    if (is.length + about.length > 0) satisfied.add(entry.id);
  }
  // An instrument named beside a document about it is that document's subject, not a second
  // source: "According to NIST SP 800-66, how often must the HIPAA evaluation be performed?"
  // asks the guide.
  const namedDocs = new Set(named.flatMap((e) => reached.get(e.id)?.is ?? []));
  for (const entry of named) {
    const { is, about } = reached.get(entry.id) ?? { is: [], about: [] };
    const subjectOfNamed = about.some((id) => namedDocs.has(id));
    for (const id of subjectOfNamed ? [] : is.length > 0 ? is : about) inScope.add(id);
  }
  const parts: Array<{ documentId: string; path: string[] }> = [];
  for (const entry of named) {
    const path = partPath(entry);
    if (path === null) continue;
    for (const id of reached.get(entry.id)?.is ?? []) {
      const doc = library.find((d) => d.doc.id === id);
      // Only where the document is more than this part (the whole of HIPAA, not a text of the Security Rule alone).
      if (doc !== undefined && inScope.has(id) && ![...doc.identity].every((e) => e === entry.id)) parts.push({ documentId: id, path });
    }
  }
  /** Every mention of the instrument gives it as an example ("… such as ISO27001"). */
  const onlyAsExample = (entry: InstrumentEntry): boolean =>
    mentions.filter((m) => m.entry.id === entry.id).every((m) => AS_EXAMPLE.test(question.slice(0, m.start)));
  const otherNames = questionNames(question).filter(
    (name) => !mentions.some((m) => covers(m.text, name.text)) && !aliasTexts.some((alias) => covers(alias, name.text)) && !incidentalAcronym(question, name),
  );
  // Rule "a lacking instrument beside one the library has is a reference": "which 800-53 control
  // sits behind the federal CUI standard's requirement, and is there an ISO 27001 match?" asks the
  // imported standard about its mapping; only a question about lacking instruments alone is refused.
  const asksImported = named.some((e) => satisfied.has(e.id));
  return {
    documentIds: documents.filter((d) => inScope.has(d.id)).map((d) => d.id),
    parts,
    instruments: [...new Set(mentions.map((m) => m.text))],
    // A description ("the EU AI law") scopes, but is not sure enough to refuse for: only a name or an identifier is.
    missingInstruments: named
      .filter((e) => !asksImported && !satisfied.has(e.id) && !onlyAsExample(e) && mentions.some((m) => m.entry.id === e.id && m.by !== "description"))
      .map((e) => e.display),
    otherNames,
  };
}
