// Follow-up questions in a conversation. An auditor asks "How quickly must a financial entity
// report a major ICT-related incident under DORA?" and then "and for microenterprises?" or "e per
// le PMI?": the second question alone names no regulation and no provision, so retrieving with it
// alone finds whatever mentions microenterprises. A follow-up keeps the previous question's scope
// (its words) and adds its own; a question that names a document, an instrument or an article of
// its own starts a new scope, whatever its form.

import { escapeRegExp, WORD } from "../../text/index.ts";

export interface FollowUpDecision {
  followUp: boolean;
  /** The question to retrieve and answer with: the previous scope plus the new words, or the question itself. */
  question: string;
  /** Why, in words (shown under the answer and recorded with the turn). */
  reason: string;
  /** A follow-up's own words ("for microenterprises"): what the answer is now about, within the kept scope. */
  subject?: string;
}

/**
 * The documents, instruments and provisions a question names (not its parties: "what about
 * processors?" is exactly a follow-up). The seam for question analysis: the engine passes one built
 * from the library; localScopeNames is the fallback with no library knowledge of names.
 */
export type ScopeNamer = (question: string) => string[];

/** Words that open an elliptical follow-up; sorted longest first so "and what about" wins over "and". */
const MARKERS: readonly string[] = [
  // English
  "and what about",
  "and how about",
  "and what of",
  "what about",
  "how about",
  "what of",
  "and in the case of",
  "in the case of",
  "and if",
  "what if",
  "and also",
  "but",
  "and",
  "also",
  "same for",
  "same question for",
  "the same for",
  "as for",
  "as to",
  "regarding",
  "concerning",
  "then",
  "or",
  // Italian
  "e per quanto riguarda",
  "per quanto riguarda",
  "e invece",
  "e nel caso di",
  "e nel caso dei",
  "e nel caso delle",
  "nel caso di",
  "e riguardo a",
  "e riguardo ai",
  "e riguardo alle",
  "riguardo a",
  "riguardo ai",
  "riguardo alle",
  "quanto a",
  "e quanto a",
  "e se",
  "e anche",
  "invece",
  "mentre",
  "anche",
  "ma",
  "oppure",
  "ed",
  "e",
  "stessa domanda per",
  "lo stesso per",
].sort((a, b) => b.length - a.length);

/** Not inside a word: JavaScript's \b knows only ASCII letters ("perché", "ciò", "può"). */
const NOT_LETTER_BEFORE = "(?<![\\p{L}\\p{N}])";
const NOT_LETTER_AFTER = "(?![\\p{L}\\p{N}])";

function anyWord(list: readonly string[], anchored: boolean): RegExp {
  return new RegExp(`${anchored ? "^" : NOT_LETTER_BEFORE}(?:${list.join("|")})${NOT_LETTER_AFTER}`, "iu");
}

/** Words that refer back to the previous question: "does this also apply…", "vale anche per…". */
const REFERS_BACK = anyWord(
  [
    "this",
    "that",
    "these",
    "those",
    "such",
    "the same",
    "they",
    "them",
    "also",
    "too",
    "as well",
    "questo",
    "questa",
    "questi",
    "queste",
    "ciò",
    "tale",
    "tali",
    "stesso",
    "stessa",
    "stessi",
    "stesse",
    "anche",
    "pure",
  ],
  false,
);
/** "at the same time" does not refer back. */
const INDEPENDENT = /at the same time|nello stesso tempo/i;

/** A question or command word: a short question starting with one is complete ("Define processor"). */
const COMPLETE_START = anyWord(
  [
    "what",
    "who",
    "whom",
    "which",
    "when",
    "where",
    "why",
    "how",
    "is",
    "are",
    "does",
    "do",
    "did",
    "can",
    "could",
    "may",
    "must",
    "shall",
    "should",
    "will",
    "would",
    "has",
    "have",
    "define",
    "list",
    "explain",
    "describe",
    "summari[sz]e",
    "show",
    "give",
    "cosa",
    "che cosa",
    "chi",
    "quale",
    "quali",
    "quando",
    "dove",
    "perch[eé]",
    "come",
    "quanto",
    "quanti",
    "quante",
    "quanta",
    "è",
    "sono",
    "può",
    "possono",
    "deve",
    "devono",
    "elenca",
    "definisci",
    "spiega",
    "descrivi",
  ],
  true,
);

/** Articles, sections, paragraphs, recitals, annexes, § and CFR parts: a provision of the question's own. */
const PROVISION = new RegExp(
  `${NOT_LETTER_BEFORE}(?:(?:art(?:icle|icles|icolo|icoli)?\\.?|recitals?|considerando|annex(?:es)?|allegat[oi]|sections?|sezione|paragraph|paragrafo|par\\.|comma|chapter|capo|titolo|title|part|subpart)\\s*\\(?(?:\\d+[a-z]?|[ivxlc]+)${NOT_LETTER_AFTER}|§\\s*\\d|\\d+\\s*CFR${NOT_LETTER_AFTER})`,
  "iu",
);

/** Instruments written by number or by a well-known short name, when nothing better is known. */
const INSTRUMENT =
  /\b(?:regulation|directive|decision|regolamento|direttiva|decreto|d\.\s?lgs\.?|law|legge)\s+(?:\((?:eu|ue|ec|ce)\)\s+)?(?:no\.?\s+|n\.\s*)?\d+(?:\/\d+)?|\b(?:GDPR|RGPD|DORA|NIS ?2|MiCAR?|AI Act|PSD ?[23]|eIDAS|HIPAA|GLBA|SOX|FFIEC|NIST|ISO(?:\/IEC)? ?\d+|SP ?800-\d+|CCPA|CPRA|PCI DSS|AMLD\d?|CRR|CRD|Codice dei contratti)\b/gi;

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** The fallback scope namer: provisions and well-known instrument names or numbers. */
export function localScopeNames(question: string): string[] {
  const names = [...question.matchAll(INSTRUMENT)].map((m) => m[0]);
  const provision = PROVISION.exec(question);
  return provision === null ? names : [...names, provision[0].trim()];
}

/** A ScopeNamer that also knows the library's documents: their titles, file names and the acronyms titles define. */
export function libraryScopeNamer(documents: ReadonlyArray<{ title: string; fileName: string }>): ScopeNamer {
  // Whole titles and file stems, and "(DORA)" in a title: single title words ("data") are everyday words.
  const phrases = documents
    .flatMap((d) => [
      d.title,
      d.fileName.replace(/\.[a-z0-9]+$/i, "").replace(/[_-]+/g, " "),
      ...[...d.title.matchAll(/\((\p{Lu}[\p{L}\p{N}]{1,11})\)/gu)].map((m) => m[1] ?? ""),
    ])
    .map((p) => normalize(p))
    .filter((p) => p.length >= 3);
  const patterns = [...new Set(phrases)].map((p) => ({ p, re: anyWord([escapeRegExp(p)], false) }));
  return (question) => [...localScopeNames(question), ...patterns.filter(({ re }) => re.test(question)).map(({ p }) => p)];
}

function normalize(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The leading follow-up marker of a question, lower-cased, or null. */
function leadingMarker(question: string): string | null {
  const lower = question.toLowerCase().replace(/^[\s"'“(¿]+/, "");
  for (const marker of MARKERS) {
    if (lower === marker || (lower.startsWith(marker) && /^[\s,;:…]/.test(lower.slice(marker.length)))) return marker;
  }
  return null;
}

/** The question without its opening conjunction ("and", "what about", "e", "invece"); "and for X" keeps "for X". */
function newWords(question: string, marker: string | null): string {
  let rest = normalize(question).replace(/[?？!.…]+$/, "");
  if (marker !== null)
    rest = rest
      .replace(/^[\s"'“(¿]+/, "")
      .slice(marker.length)
      .replace(/^[\s,;:…]+/, "");
  return rest.trim();
}

function quoteOf(text: string): string {
  const t = normalize(text);
  return t.length > 80 ? `“${t.slice(0, 77)}…”` : `“${t}”`;
}

/**
 * Whether `question` follows up `previous` (the scope-bearing question of the previous turn), and
 * the question to retrieve with. A follow-up is short, has no document or article of its own and
 * either opens with a follow-up word ("and", "what about", "e per", "invece"), refers back ("does
 * this also apply…") or is a bare phrase ("microenterprises?").
 */
export function decideFollowUp(previous: string | null, question: string, namesScope: ScopeNamer = localScopeNames): FollowUpDecision {
  const asked = normalize(question);
  if (previous === null || normalize(previous) === "") return { followUp: false, question: asked, reason: "The first question of the conversation." };
  const own = namesScope(asked);
  if (own.length > 0) {
    return {
      followUp: false,
      question: asked,
      reason: `Names its own scope (${[...new Set(own)].slice(0, 3).join(", ")}), so the previous question's scope is not kept.`,
    };
  }
  const count = words(asked).length;
  const marker = leadingMarker(asked);
  const rest = newWords(asked, marker);
  const complete = COMPLETE_START.test(rest);
  let why: string | null = null;
  if (marker !== null && count <= 12 && !(complete && words(rest).length >= 6)) why = `it opens with “${marker}”`;
  else if (count <= 8 && REFERS_BACK.test(asked) && !INDEPENDENT.test(asked)) why = "it refers back to the previous question";
  else if (count <= 3 && !complete) why = "it is a bare phrase";
  if (why === null || rest === "") return { followUp: false, question: asked, reason: "A complete question of its own." };
  const base = normalize(previous).replace(/[?？!.…]+$/, "");
  return {
    followUp: true,
    question: `${base} — ${rest}?`,
    subject: rest,
    reason: `A follow-up of ${quoteOf(previous)}: ${why} and names no document or article of its own, so that question's scope is kept.`,
  };
}
