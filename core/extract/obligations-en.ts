// Long file: the English obligation grammar (modal patterns, parties, deadlines, exceptions) is one set of rules read together.
import { findDeadlines } from "./deadlines.ts";
import { matchInstrumentAt } from "./instruments.ts";
import { textOf, tokenize, type EnglishNlp, type Tok } from "./english-tokens.ts";
import { isDeterminer, isNounLike, isParticiple, nounPhraseAt, nounPhraseEndingAt, type NounPhrase } from "./noun-phrases.ts";
import type { Modality, Obligation } from "./obligation-types.ts";
import { partyTypeOfName } from "./party-types.ts";

// English obligations read off wink-nlp's POS tags, clause by clause around each modal:
//   subject   the noun phrase opening the modal's clause (after any introductory "Where …," and
//             skipping a parenthetical before the modal), the antecedent of "which"/"who", or
//             the previous subject for "it"/"they" and a coordinated "… and shall";
//   predicate modal + the first base-form verb after it (+ coordinated verbs, particle or
//             preposition, the participle of a passive, "be responsible for", "be required to V");
//   object    the noun phrase the verb governs (with its "of" phrases), the agent or addressee of
//             a passive ("be submitted to the Commission");
//   recipient for verbs of telling (notify, inform, report, submit …), the party told.
// Every part is a noun phrase from noun-phrases.ts or nothing: a sentence the rules cannot parse
// yields no triplet rather than a fragment. Lists introduced by "must:" hand their subject and
// modal to the imperative items that follow ("(A) Risk analysis (Required). Conduct an accurate
// and thorough assessment …"), and imperative requirements (NIST SP 800-171 "Limit system
// access …") take the document's addressee when the caller gives one.

export interface EnglishObligationOptions {
  includeShould?: boolean;
  /** Subject of imperative requirements ("Limit system access …"): the party the document addresses. */
  addressee?: string;
}

const MODALS = new Set(["shall", "must", "may", "should"]);
const PREFILTER = /\b(?:shall|must|may|should|required to|prohibited from|obliged to|obligated to|not permitted to|permitted to)\b/i;
const PRONOUNS = new Set(["it", "they", "he", "she"]);
const RELATIVES = new Set(["which", "who", "that", "whom"]);
// A subordinate clause or a new clause starts after these: the subject follows the last of them.
const CLAUSE_CUTS = new Set([
  "that",
  "which",
  "who",
  "whom",
  "whose",
  "whether",
  "if",
  "where",
  "when",
  "unless",
  "whereby",
  "while",
  "whereas",
  "because",
  "since",
  "how",
  "what",
  "why",
]);
// Adverbial phrases between a verb and its object ("shall include at least …", "shall notify without undue delay the …").
const ADVERBIAL_PHRASES: ReadonlyArray<readonly string[]> = [
  ["at", "least"],
  ["at", "a", "minimum"],
  ["as", "a", "minimum"],
  ["in", "particular"],
  ["inter", "alia"],
  ["where", "appropriate"],
  ["as", "appropriate"],
  ["where", "applicable"],
  ["where", "relevant"],
  ["where", "necessary"],
  ["without", "undue", "delay"],
  ["without", "delay"],
  ["in", "writing"],
  ["in", "a", "timely", "manner"],
  ["on", "a", "voluntary", "basis"],
  ["at", "any", "time"],
  ["in", "advance"],
  ["as", "soon", "as", "possible"],
  ["upon", "request"],
  ["on", "request"],
  ["in", "any", "event"],
  ["in", "principle"],
  ["in", "full"],
  ["as", "applicable"],
  ["where", "feasible"],
  ["if", "necessary"],
  ["where", "possible"],
  ["as", "necessary"],
  ["as", "the", "case", "may", "be"],
  ["if", "applicable"],
  ["if", "appropriate"],
];
const PARTICLES = new Set(["out", "up", "down", "off", "away", "back"]);
const PREP_VERBS = new Set([
  "comply with",
  "refrain from",
  "cooperate with",
  "rely on",
  "account for",
  "provide for",
  "consist of",
  "refer to",
  "respond to",
  "adhere to",
  "contribute to",
  "apply to",
  "consult with",
  "engage in",
  "participate in",
  "decide on",
  "agree on",
  "report on",
  "act on",
  "draw on",
  "deal with",
  "liaise with",
  "coordinate with",
  "abide by",
  "object to",
  "opt for",
  "subscribe to",
  "apply for",
  "pay for",
  "care for",
  "focus on",
  "lead to",
  "result from",
  "result in",
  "depend on",
  "benefit from",
  "opt in",
  "relate to",
  "build on",
  "insist on",
  "vote on",
  "agree to",
  "consent to",
  "attend to",
  "adapt to",
  "allow for",
  "call for",
  "look at",
  "look into",
  "work with",
  "communicate with",
  "enter into",
  "decide upon",
  "rely upon",
  "act upon",
  "conform to",
  "comply to",
  "respond within",
  "attach to",
  "belong to",
]);
const PHRASAL_OBJECTS: ReadonlyArray<readonly string[]> = [
  ["into", "account"],
  ["in", "place"],
  ["into", "consideration"],
  ["rise", "to"],
  ["note", "of"],
  ["account", "of"],
  ["utmost", "account", "of"],
  ["regard", "to"],
  ["part", "in"],
  ["into", "force"],
  ["place"],
];
// Participles and adjectives after "be" that take an infinitive: the infinitive is the real verb.
const BE_TO = new Set([
  "required",
  "empowered",
  "entitled",
  "allowed",
  "permitted",
  "obliged",
  "obligated",
  "authorised",
  "authorized",
  "able",
  "expected",
  "invited",
  "encouraged",
  "requested",
]);
// Adjectives after "be" that take a complement: "be responsible for", "be subject to", "be exempt from".
const BE_ADJ_PREPS = new Map<string, ReadonlySet<string>>([
  ["responsible", new Set(["for"])],
  ["liable", new Set(["for", "to"])],
  ["subject", new Set(["to"])],
  ["entitled", new Set(["to"])],
  ["exempt", new Set(["from"])],
  ["eligible", new Set(["for"])],
  ["able", new Set(["to"])],
  ["competent", new Set(["for", "to"])],
  ["accountable", new Set(["for", "to"])],
  ["applicable", new Set(["to"])],
  ["compliant", new Set(["with"])],
  ["consistent", new Set(["with"])],
  ["aware", new Set(["of"])],
  ["independent", new Set(["of", "from"])],
  ["free", new Set(["from", "of"])],
  ["bound", new Set(["by"])],
]);
// Verbs that take an infinitive carrying the meaning: "should continue to ensure", "shall seek to resolve".
const CATENATIVES = new Set([
  "continue",
  "seek",
  "aim",
  "endeavour",
  "endeavor",
  "strive",
  "try",
  "cease",
  "refuse",
  "fail",
  "undertake",
  "decide",
  "agree",
  "need",
  "wish",
]);
// Verbs of telling: their addressee is a recipient, not the thing told.
const TELL_PARTY_FIRST = new Set(["notify", "inform", "alert", "advise", "warn", "update"]);
const TELL = new Set([
  ...TELL_PARTY_FIRST,
  "report",
  "communicate",
  "submit",
  "transmit",
  "send",
  "forward",
  "provide",
  "disclose",
  "give",
  "deliver",
  "supply",
  "share",
  "make",
  "notify",
  "present",
  "address",
  "refer",
  "return",
  "furnish",
]);
// Imperative requirements and list items start with one of these (wink tags some as nouns there).
const IMPERATIVE_VERBS = new Set([
  "limit",
  "control",
  "monitor",
  "track",
  "document",
  "report",
  "create",
  "retain",
  "ensure",
  "establish",
  "maintain",
  "implement",
  "employ",
  "use",
  "protect",
  "identify",
  "authenticate",
  "verify",
  "prohibit",
  "prevent",
  "separate",
  "terminate",
  "enforce",
  "provide",
  "review",
  "update",
  "alert",
  "correct",
  "perform",
  "conduct",
  "develop",
  "test",
  "train",
  "screen",
  "escort",
  "sanitize",
  "mark",
  "encrypt",
  "store",
  "route",
  "deny",
  "allow",
  "restrict",
  "disable",
  "apply",
  "assess",
  "scan",
  "remediate",
  "analyze",
  "analyse",
  "audit",
  "manage",
  "define",
  "configure",
  "require",
  "obtain",
  "assign",
  "designate",
  "include",
  "record",
  "respond",
  "restore",
  "back",
  "procure",
  "determine",
  "evaluate",
  "notify",
  "inform",
  "adopt",
  "approve",
  "allocate",
  "supervise",
  "authorize",
  "authorise",
  "reconcile",
  "coordinate",
  "collect",
  "correlate",
  "protect",
]);
const COORDINATED_VERBS = new Set([
  "increase",
  "reduce",
  "affirm",
  "modify",
  "amend",
  "suspend",
  "revoke",
  "withdraw",
  "extend",
  "reject",
  "accept",
  "process",
  "transfer",
  "request",
  "store",
  "access",
  "change",
  "delete",
  "erase",
  "rectify",
  "complete",
  "object",
  "restrict",
  "exchange",
  "publish",
  "issue",
  "renew",
  "approve",
  "disclose",
  "use",
  "maintain",
  "test",
  "record",
  "document",
  "report",
  "review",
  "notify",
  "attempt",
]);
const LIST_MARKER = /^(?:\(?[a-z0-9ivx]{1,4}[).]|[-–•·]|\d+(?:\.\d+)*\.?)$/i;

interface Trigger {
  first: number;
  last: number;
  modality: Modality;
  negated: boolean;
  /** The modal as the predicate shows it ("shall", "must not", "is required to"). */
  text: string;
}

interface Predicate {
  /** Main verb (first) and the last token of the verb group. */
  verb: number;
  to: number;
  passive: boolean;
  /** Lemma of the verb that carries the meaning ("notify", not "be"). */
  lemma: string;
  /** "make that information publicly available": the adjective that completes the verb after its object. */
  adjective?: number;
}

interface Span {
  from: number;
  to: number;
}

/** A verb in a list of coordinated verbs ("affirm, increase, or reduce"), where wink often tags nouns. */
function isListedVerb(t: Tok | undefined): boolean {
  if (t !== undefined && (t.lower === "be" || t.lower === "have")) return false;
  return t !== undefined && (isBaseVerb(t) || ((t.pos === "NOUN" || t.pos === "ADJ") && (IMPERATIVE_VERBS.has(t.lower) || COORDINATED_VERBS.has(t.lower))));
}

const FINITE_FORMS = new Set(["is", "are", "was", "were", "been", "being", "has", "had", "does", "did", "am"]);

/** A verb in its bare form ("notify", "be", "lay" — wink lemmatises that one to "lie"). */
function isBaseVerb(t: Tok | undefined): boolean {
  if (t === undefined) return false;
  if (t.pos !== "VERB" && t.pos !== "AUX") return false;
  if (MODALS.has(t.lower) || FINITE_FORMS.has(t.lower)) return false;
  if (t.lemma === t.lower) return true;
  return !/(?:ed|ing)$/.test(t.lower) && !/[^s]s$/.test(t.lower) && !isParticiple(t);
}

function triggers(toks: readonly Tok[], from: number, to: number, includeShould: boolean, text: string): Trigger[] {
  const out: Trigger[] = [];
  for (let i = from; i <= to; i++) {
    const t = toks[i];
    if (!t) continue;
    const next = toks[i + 1]?.lower ?? "";
    if (MODALS.has(t.lower) && (t.pos === "AUX" || t.pos === "VERB")) {
      if (t.lower === "should" && !includeShould) continue;
      // "as the case may be": an idiom, not a permission.
      if (t.lower === "may" && next === "be" && toks[i - 1]?.lower === "case") continue;
      const negated = next === "not" || next === "n't";
      const base: Modality = t.lower === "may" ? "may" : t.lower === "should" ? "should" : "must";
      // "may not" forbids; "shall not"/"must not" forbid; "should not" advises against.
      const modality: Modality = negated ? (base === "should" ? "should not" : "must not") : base;
      const last = negated ? i + 1 : i;
      out.push({ first: i, last, modality, negated, text: textOf(text, toks, i, last).toLowerCase() });
      continue;
    }
    if ((t.lower === "is" || t.lower === "are") && i + 2 <= to) {
      const neg = next === "not";
      const w = neg ? (toks[i + 2]?.lower ?? "") : next;
      const k = i + (neg ? 3 : 2);
      const prep = toks[k]?.lower ?? "";
      let found: Omit<Trigger, "text"> | null = null;
      if ((w === "required" || w === "obliged" || w === "obligated") && prep === "to")
        found = { first: i, last: k, modality: neg ? "may" : "must", negated: neg };
      else if (w === "prohibited" && (prep === "from" || prep === "to")) found = { first: i, last: k, modality: neg ? "may" : "must not", negated: !neg };
      else if (w === "permitted" && prep === "to") found = { first: i, last: k, modality: neg ? "must not" : "may", negated: neg };
      if (found !== null) out.push({ ...found, text: textOf(text, toks, found.first, found.last).toLowerCase() });
    }
  }
  return out;
}

/** Index of the comma opening a parenthetical that closes at `close` (",  where applicable, "), or -1. */
function openingComma(toks: readonly Tok[], close: number, lower: number): number {
  for (let k = close - 1; k >= lower && close - k <= 30; k--) {
    const v = toks[k]?.value;
    if (v === ";" || v === ":" || v === ".") return -1;
    if (v === ",") return k;
  }
  return -1;
}

/** An -ing verb opening a phrase: a gerund clause ("implementing automated mechanisms"). */
function isGerund(t: Tok | undefined, next?: Tok): boolean {
  if (t === undefined || !/ing$/.test(t.lower) || ING_WORDS.has(t.lower)) return false;
  if (t.pos === "VERB") return true;
  // "may include isolating administrative interfaces", "consider salting passwords": tagged a noun, used as a verb.
  return (
    (t.pos === "NOUN" || t.pos === "PROPN") && next !== undefined && (next.pos === "ADJ" || next.pos === "NOUN" || next.pos === "DET" || next.pos === "PRON")
  );
}

// -ing words that name things ("processing", "undertaking", "the following"), never a gerund clause.
const ING_WORDS = new Set([
  "processing",
  "undertaking",
  "following",
  "reporting",
  "testing",
  "training",
  "funding",
  "marketing",
  "profiling",
  "hearing",
  "ruling",
  "finding",
  "filing",
  "setting",
  "meeting",
  "proceeding",
  "recording",
  "accounting",
  "monitoring",
  "outsourcing",
  "screening",
  "logging",
  "scanning",
  "handling",
  "building",
  "planning",
  "pricing",
  "licensing",
  "listing",
  "sharing",
]);
// "Due to …", "Prior to …", "Subject to …": prepositions that look like adjectives at the start of a sentence.
const COMPOUND_PREPOSITIONS = new Set([
  "due",
  "prior",
  "according",
  "pursuant",
  "subject",
  "further",
  "regardless",
  "irrespective",
  "notwithstanding",
  "without",
  "contrary",
]);

interface Chunk extends Span {
  /** A relative pronoun with nothing after it ("…, which shall"): its antecedent is the subject. */
  relative: number;
}

function isFiniteVerb(toks: readonly Tok[], k: number): boolean {
  const t = toks[k];
  return t !== undefined && (t.pos === "VERB" || t.pos === "AUX") && !isParticiple(t) && !/ing$/.test(t.lower) && !isNounLike(toks, k) && !MODALS.has(t.lower);
}

/**
 * True when a finite verb stands between `from` and `to` outside a relative clause: the phrase
 * before it is the subject of that verb ("Violation or violate means, as the context may
 * require"), not of the modal.
 */
function hasOwnVerb(toks: readonly Tok[], from: number, to: number): boolean {
  // A relative clause still open at the modal ("… functions that authorized users are
  // permitted to execute") holds the modal: the phrase before it is not its subject either.
  let relative = false;
  let relativeVerb = false;
  for (let k = from; k <= to; k++) {
    const t = toks[k];
    if (!t) break;
    if (RELATIVES.has(t.lower) && t.pos !== "DET") {
      relative = true;
      relativeVerb = false;
    } else if (t.value === ",") relative = false;
    else if (isFiniteVerb(toks, k)) {
      if (!relative) return true;
      relativeVerb = true;
    } else if (relative && toks[k]?.pos === "VERB") relativeVerb = true; // "which informed the lead supervisory authority"
  }
  return relative && !relativeVerb;
}

/** Where the subject of the modal at `trig` is to be looked for. */
function subjectChunk(toks: readonly Tok[], segStart: number, trig: number, opensSentence: boolean): Chunk | null {
  let end = trig - 1;
  while (end >= segStart && (toks[end]?.pos === "ADV" || toks[end]?.lower === "also" || toks[end]?.lower === "therefore")) end--;
  if (toks[end]?.value === ",") {
    // "Financial entities, other than microenterprises, shall": skip the parenthetical.
    const open = openingComma(toks, end, segStart);
    if (open < 0) return null;
    end = open - 1;
  }
  if (end < segStart) return null;
  let first = skipListMarkers(toks, segStart, end);
  // "4 Only information that …", "Also, …"
  while (first < end && toks[first]?.pos === "ADV" && /^(?:only|also|further|moreover|however|similarly|likewise)$/i.test(toks[first]?.value ?? "")) first++;
  // A sentence that opens with its subject ("Decisions adopted by the Commission on the basis of
  // Article 26(4) …, shall remain", "A covered entity that also performs the duties of a coroner
  // may"): the first noun phrase, whatever commas and relative clauses follow it, unless a verb
  // of its own follows it ("The controller ensures that …").
  const opener = toks[first];
  const opensWithPhrase =
    opener !== undefined &&
    ["DET", "NOUN", "PROPN", "ADJ", "NUM"].includes(opener.pos) &&
    !CLAUSE_CUTS.has(opener.lower) &&
    !/ing$/.test(opener.lower) &&
    !COMPOUND_PREPOSITIONS.has(opener.lower);
  if (opensSentence && opensWithPhrase) {
    const np = nounPhraseAt(toks, first, end);
    if (np !== null && !hasOwnVerb(toks, np.to + 1, end)) return { from: first, to: end, relative: -1 };
  }
  // Otherwise the clause starts after the last comma, subordinator or verb before the modal.
  let start = segStart;
  for (let k = end; k >= segStart; k--) {
    const t = toks[k];
    if (!t) break;
    if (t.value === "," || t.value === ";" || t.value === ":") {
      start = k + 1;
      break;
    }
    const asClause = t.lower === "as" && (toks[k + 1]?.pos === "DET" || toks[k + 1]?.pos === "PRON");
    if ((CLAUSE_CUTS.has(t.lower) && t.pos !== "NOUN" && t.pos !== "DET") || asClause) {
      if (k === end && RELATIVES.has(t.lower)) return { from: k, to: end, relative: k };
      start = k + 1;
      break;
    }
    if (isFiniteVerb(toks, k)) {
      // "… the entity that is a microenterprise may": a relative clause inside the subject phrase.
      let r = k - 1;
      while (r > segStart && toks[r]?.pos === "ADV") r--;
      if (RELATIVES.has(toks[r]?.lower ?? "") && isNounLike(toks, r - 1)) {
        end = r - 1;
        k = r;
        continue;
      }
      start = k + 1;
      break;
    }
  }
  return start > end ? null : { from: start, to: end, relative: -1 };
}

/** A list marker's token: punctuation, a number, or the letters of "(a) the controller", "(ii) A covered entity". */
function isMarkerToken(toks: readonly Tok[], i: number): boolean {
  const t = toks[i];
  if (!t) return false;
  if (t.pos === "PUNCT" || t.pos === "SYM" || t.pos === "NUM") return true;
  return /^[a-z]{1,4}$/i.test(t.value) && toks[i - 1]?.value === "(" && toks[i + 1]?.value === ")";
}

function skipListMarkers(toks: readonly Tok[], k: number, end: number): number {
  let i = k;
  while (i <= end) {
    const t = toks[i];
    if (!t) break;
    // A heading word printed before the sentence ("DISCUSSION Alternate work sites may …").
    const heading =
      /^[A-Z]{4,}$/.test(t.value) && /^[A-Z][a-z]/.test(toks[i + 1]?.value ?? "") && (t.lower === "discussion" || t.lower === "note" || t.lower === "example");
    if (!heading && !isMarkerToken(toks, i)) break;
    i++;
  }
  return i;
}

/** The subject noun phrase(s) of a chunk, or a relative pronoun's position. */
function subjectIn(toks: readonly Tok[], chunk: Chunk): { phrases: NounPhrase[]; relative: number; pronoun?: boolean } {
  if (chunk.relative >= 0) return { phrases: [], relative: chunk.relative };
  let k = skipListMarkers(toks, chunk.from, chunk.to);
  if (RELATIVES.has(toks[k]?.lower ?? "")) return { phrases: [], relative: k };
  // "…, it shall be accompanied by reasons": the previous subject.
  if (k === chunk.to && PRONOUNS.has(toks[k]?.lower ?? "")) return { phrases: [], relative: -1, pronoun: true };
  // "Observing basic cyber hygiene should …": a gerund clause is the subject, and no noun phrase.
  if (isGerund(toks[k], toks[k + 1])) return { phrases: [], relative: -1 };
  while (k <= chunk.to) {
    const t = toks[k];
    if (!t) break;
    if (CLAUSE_CUTS.has(t.lower) && t.pos !== "NOUN" && t.pos !== "DET") {
      if (RELATIVES.has(t.lower) && k === chunk.from) return { phrases: [], relative: k };
      k++;
      continue;
    }
    if (t.pos === "ADP" || t.pos === "SCONJ" || (t.pos === "PART" && t.lower === "to")) {
      // A prepositional phrase ("In such cases", "For the purposes of paragraph 1") is not the subject.
      const pp = nounPhraseAt(toks, k + 1, chunk.to);
      k = pp === null ? k + 1 : pp.to + 1;
      continue;
    }
    const np = nounPhraseAt(toks, k, chunk.to);
    if (np === null) {
      k++;
      continue;
    }
    // "Observing basic cyber hygiene should …": a gerund clause, not a noun phrase.
    if (isGerund(toks[np.from])) return { phrases: [], relative: -1 };
    return { phrases: coordinated(toks, np, chunk.to), relative: -1 };
  }
  return { phrases: [], relative: -1 };
}

/**
 * "The controller and the processor shall", "The Member States, the supervisory authorities, the
 * Board and the Commission shall": every party of a list that is the whole subject is bound. A
 * list that does not run up to the modal is not the subject ("Decisions adopted by …, shall").
 */
function coordinated(toks: readonly Tok[], np: NounPhrase, end: number): NounPhrase[] {
  const phrases = [np];
  let k = np.to + 1;
  for (let guard = 0; guard < 8; guard++) {
    const sep = toks[k];
    const final = sep?.pos === "CCONJ" || (sep?.value === "," && toks[k + 1]?.pos === "CCONJ");
    if (sep?.value !== "," && !final) break;
    const next = nounPhraseAt(toks, k + (sep?.value === "," && final ? 2 : 1), end);
    if (next === null) break;
    // "Legal and practical certainty", "Union or Member State law": one word before the
    // conjunction shares the head after it; that is one phrase, not two parties.
    if (phrases.length === 1 && np.from === np.to && next.to > next.from && final) return [{ ...np, to: next.to, head: next.head }];
    phrases.push(next);
    k = next.to + 1;
    if (final) return k > end ? phrases : [np];
  }
  return [np];
}

/** "EBA, ESMA or EIOPA, which …": the coordinated phrases ending at `end`, the antecedent of a relative. */
function coordinatedEndingAt(toks: readonly Tok[], end: number, lower: number): NounPhrase[] {
  const last = nounPhraseEndingAt(toks, end, lower);
  if (last === null) return [];
  const out = [last];
  let sep = (last.determiner >= 0 ? last.determiner : last.from) - 1;
  let sawConjunction = false;
  for (let guard = 0; guard < 6 && sep > lower; guard++) {
    const t = toks[sep];
    if (!(t?.pos === "CCONJ" || t?.value === ",")) break;
    let k = sep - 1;
    if (toks[k]?.value === ",") k--;
    const np = nounPhraseEndingAt(toks, k, lower);
    if (np === null) break;
    const before = (np.determiner >= 0 ? np.determiner : np.from) - 1;
    // A phrase joined by a comma belongs to the list only when the list goes on before it
    // ("EBA, ESMA or EIOPA"), not after an introductory phrase ("… of this Regulation, the controller").
    const listGoesOn = before < lower || toks[before]?.value === "," || toks[before]?.pos === "CCONJ" || skipListMarkers(toks, lower, before) > before;
    // "to EBA, ESMA or EIOPA": a list of named bodies is whole even where it starts after a preposition.
    const namedBodies =
      sawConjunction && np.from === np.to && toks[np.from]?.pos === "PROPN" && out.every((p) => p.from === p.to && toks[p.from]?.pos === "PROPN");
    if (t.pos !== "CCONJ" && !listGoesOn && !namedBodies) break;
    if (t.pos === "CCONJ") sawConjunction = true;
    out.unshift(np);
    sep = before;
    if (!listGoesOn) break;
  }
  return sawConjunction ? out : [last];
}

/** The first base-form verb after the modal, skipping adverbs, parentheticals and "without undue delay". */
function mainVerb(toks: readonly Tok[], trig: Trigger, segEnd: number): number {
  let commas = 0;
  for (let i = trig.last + 1; i <= segEnd && i <= trig.last + 45; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    if (!t || !prev) break;
    if (t.value === ";" || t.value === ":" || t.value === ".") return -1;
    if (t.value === ",") commas++;
    if (t.lower === "inter" && toks[i + 1]?.lower === "alia") {
      i++;
      continue;
    }
    if (MODALS.has(t.lower) && (t.pos === "AUX" || t.pos === "VERB")) return -1;
    // "are prohibited from entering into": the gerund is the verb.
    if (i === trig.last + 1 && toks[trig.last]?.lower === "from" && /ing$/.test(t.lower) && t.pos === "VERB") return i;
    // Right after the modal a verb wink tagged as a noun ("may disclose/NOUN, or provide") is still
    // the verb, and so is one after a parenthetical that a coordinated verb follows ("…, issue and renew").
    if (i === trig.last + 1 && isListedVerb(t) && !isDeterminer(toks[i - 1])) return i;
    if (prev.value === "," && isListedVerb(t) && toks[i + 1]?.pos === "CCONJ" && isListedVerb(toks[i + 2])) return i;
    if (!isBaseVerb(t)) continue;
    if (t.lower === "to" || prev.pos === "ADP" || prev.lower === "to") {
      if (i !== trig.last + 1) continue;
    }
    // A verb after a noun is the main verb only when no parenthetical is open ("shall, within
    // the time limits laid down …, notify" keeps looking past "laid").
    const okPrev =
      i === trig.last + 1 ||
      prev.value === "," ||
      prev.pos === "ADV" ||
      prev.lower === "not" ||
      prev.pos === "CCONJ" ||
      prev.pos === "PART" ||
      (commas % 2 === 0 && (prev.pos === "NOUN" || prev.pos === "PROPN" || prev.pos === "NUM"));
    if (okPrev) return i;
  }
  return -1;
}

function predicateAt(toks: readonly Tok[], verb: number, segEnd: number): Predicate {
  const t = toks[verb];
  let to = verb;
  let passive = false;
  let lemma = t?.lemma ?? "";
  const skipAdv = (k: number): number => {
    let i = k;
    while (toks[i]?.pos === "ADV" && i < segEnd) i++;
    return i;
  };
  if (t?.lower === "be") {
    const n = skipAdv(verb + 1);
    const nt = toks[n];
    if (nt && isParticiple(nt)) {
      to = n;
      passive = true;
      lemma = nt.lemma;
      // "be carried out by", "be laid down in", "be held liable", "be taken into account"
      if (toks[n + 1]?.lower === "into" && (toks[n + 2]?.lower === "account" || toks[n + 2]?.lower === "consideration")) to = n + 2;
      else if (PARTICLES.has(toks[n + 1]?.lower ?? "") || toks[n + 1]?.lower === "out") to = n + 1;
      else if (toks[n + 1]?.pos === "ADJ" && !isNounLike(toks, n + 2) && toks[n + 2]?.pos !== "ADJ") to = n + 1;
    } else if (nt && (nt.pos === "ADJ" || BE_ADJ_PREPS.has(nt.lower))) {
      to = n;
      lemma = nt.lower;
      // "be withdrawn, as applicable, by …": a participle the tagger read as an adjective.
      if (/(?:ed|wn)$/.test(nt.lower) && !BE_ADJ_PREPS.has(nt.lower)) passive = true;
      if ((BE_ADJ_PREPS.get(nt.lower)?.has(toks[n + 1]?.lower ?? "") ?? false) && !(toks[n + 1]?.lower === "to" && isBaseVerb(toks[n + 2]))) to = n + 1;
    }
    // "be required to notify", "be entitled to lodge": the infinitive carries the meaning.
    const after = toks[to + 1];
    if (BE_TO.has(toks[to]?.lower ?? "") && after?.lower === "to" && isBaseVerb(toks[to + 2])) {
      to += 2;
      passive = false;
      lemma = toks[to]?.lemma ?? lemma;
    }
  } else if (t?.lower === "have" && toks[verb + 1]?.lower === "in" && toks[verb + 2]?.lower === "place") {
    to = verb + 2;
  } else if (t?.lower === "make" && toks[verb + 1]?.lower === "use" && toks[verb + 2]?.lower === "of") {
    to = verb + 2;
  } else if (t?.lower === "make" && (toks[verb + 1]?.lower === "public" || toks[verb + 1]?.lower === "available")) {
    // "make public a list", "make available the information"
    to = verb + 1;
  } else if (t?.lower === "make") {
    // "make that information publicly available": the adjective after the object is part of the verb.
    const np = nounPhraseAt(toks, verb + 1, segEnd);
    let after = np === null ? -1 : np.to + 1;
    while (after > 0 && toks[after]?.pos === "ADV") after++;
    const adj = toks[after]?.lower;
    if (np !== null && (adj === "available" || adj === "public" || adj === "accessible"))
      return { verb, to: verb, passive: false, lemma: "make", adjective: after };
  }
  if (CATENATIVES.has(toks[to]?.lemma ?? "") && toks[to + 1]?.lower === "to" && isBaseVerb(toks[to + 2])) {
    to += 2;
    lemma = toks[to]?.lemma ?? lemma;
  }
  // "use or disclose", "establish, implement and maintain": coordinated bare verbs share the modal.
  for (;;) {
    const a = toks[to + 1];
    const b = toks[to + 2];
    const c = toks[to + 3];
    if (a?.pos === "CCONJ" && isListedVerb(b) && to + 2 <= segEnd && (b?.pos === "VERB" || !isNounLike(toks, to + 3))) to += 2;
    else if (a?.value === "," && isListedVerb(b) && (toks[to + 3]?.value === "," || toks[to + 3]?.pos === "CCONJ") && to + 2 <= segEnd) to += 2;
    else if (a?.value === "," && b?.pos === "CCONJ" && isListedVerb(c) && to + 3 <= segEnd) to += 3;
    else break;
  }
  const last = toks[to];
  const next = toks[to + 1];
  if (last && next && !passive) {
    if (PARTICLES.has(next.lower) && next.pos !== "NOUN") to += 1;
    else if (PREP_VERBS.has(`${last.lemma} ${next.lower}`)) to += 1;
    else {
      for (const phrase of PHRASAL_OBJECTS) {
        if (phrase.every((w, n) => toks[to + 1 + n]?.lower === w)) {
          to += phrase.length;
          // "put in place, maintain and periodically test appropriate … plans"
          for (;;) {
            const a = toks[to + 1];
            let b = to + 2;
            while (toks[b]?.pos === "ADV") b++;
            if ((a?.value === "," || a?.pos === "CCONJ") && isListedVerb(toks[b])) to = b;
            else if (a?.value === "," && toks[to + 2]?.pos === "CCONJ" && isListedVerb(toks[to + 3])) to += 3;
            else break;
          }
          break;
        }
      }
    }
  }
  return { verb, to, passive, lemma };
}

/** True when tokens from..to are only an adverbial: adverbs, a listed phrase, or one prepositional phrase. */
function isAdverbial(toks: readonly Tok[], from: number, to: number): boolean {
  let i = from;
  while (i <= to && toks[i]?.pos === "ADV") i++;
  if (i > to) return true;
  const phrase = ADVERBIAL_PHRASES.find((p) => p.every((w, n) => toks[i + n]?.lower === w));
  if (phrase !== undefined) return isAdverbial(toks, i + phrase.length, to);
  // A chain of prepositional phrases: ", in accordance with Union and national sectoral law,".
  let k = i;
  for (let guard = 0; guard < 6 && (toks[k]?.pos === "ADP" || toks[k]?.pos === "SCONJ" || (k > i && toks[k]?.pos === "CCONJ")); guard++) {
    const np = nounPhraseAt(toks, k + 1, to);
    if (np === null) return false;
    if (np.to === to) return true;
    k = np.to + 1;
  }
  return false;
}

/** Skips adverbs and adverbial parentheticals (", where appropriate,", ", upon their request,") after `k`. */
function skipAdverbials(toks: readonly Tok[], k: number, end: number): number {
  let i = k;
  for (let guard = 0; guard < 6 && i <= end; guard++) {
    while (i <= end && (toks[i]?.pos === "ADV" || toks[i]?.lower === "not")) i++;
    const phrase = ADVERBIAL_PHRASES.find((p) => p.every((w, n) => toks[i + n]?.lower === w));
    if (phrase !== undefined) {
      i += phrase.length;
      continue;
    }
    if (toks[i]?.value === ",") {
      let j = i + 1;
      while (j <= end && j - i < 20 && toks[j]?.value !== "," && toks[j]?.value !== ";") j++;
      if (toks[j]?.value === "," && isAdverbial(toks, i + 1, j - 1)) {
        i = j + 1;
        continue;
      }
    }
    break;
  }
  return i;
}

interface Complements {
  object: Span | null;
  recipient: Span | null;
  /** A preposition to add to the predicate ("be submitted to", "comply with"). */
  preposition: string;
}

/** The phrase with its determiner, so that naming sees "this Regulation" (the document itself). */
function nounPhraseSpan(np: NounPhrase): Span {
  return { from: np.determiner >= 0 ? np.determiner : np.from, to: np.to };
}

function isPartyPhrase(text: string, toks: readonly Tok[], span: Span | null): boolean {
  if (span === null) return false;
  return partyTypeOfName(textOf(text, toks, span.from, span.to).toLowerCase()) !== null;
}

/** The end of the clause an object may run to: ";", ".", a relative or subordinate start. */
function clauseEnd(toks: readonly Tok[], from: number, segEnd: number): number {
  for (let i = from; i <= segEnd; i++) {
    const v = toks[i]?.lower ?? "";
    if (v === ";" || v === "." || v === ":") return i - 1;
    if (v === "where" || v === "unless" || v === "if" || v === "when" || v === "provided" || v === "whereby") return i - 1;
  }
  return segEnd;
}

/** Object (with "of" phrases and coordinated nouns) and, for verbs of telling, the party told. */
function complementsOf(text: string, toks: readonly Tok[], pred: Predicate, segEnd: number): Complements {
  const end = clauseEnd(toks, pred.to + 1, segEnd);
  const lastOfPredicate = toks[pred.to];
  // The predicate already ends with its preposition ("comply with", "be responsible for").
  const prepInPredicate = lastOfPredicate !== undefined && (lastOfPredicate.pos === "ADP" || (lastOfPredicate.lower === "to" && pred.to > pred.verb));
  let k = skipAdverbials(toks, pred.to + 1, end);
  if (pred.passive && !prepInPredicate) {
    // The agent or addressee follows the participle ("be submitted to", "be withdrawn, as
    // applicable, by"); "be implemented prior to the date" says when, not to whom.
    k = toks[pred.to + 1]?.value === "," ? skipAdverbials(toks, pred.to + 1, end) : pred.to + 1;
    const prep = toks[k]?.lower ?? "";
    if (prep === "to" || prep === "by" || prep === "with") {
      // "be facilitated by, on the one hand, close cooperation …"
      const np = nounPhraseAt(toks, skipAdverbials(toks, k + 1, end), end);
      if (np === null) return { object: null, recipient: null, preposition: "" };
      const span = nounPhraseSpan(np);
      return { object: span, recipient: prep === "to" && TELL.has(pred.lemma) && isPartyPhrase(text, toks, span) ? span : null, preposition: prep };
    }
    return { object: null, recipient: null, preposition: "" };
  }
  if (pred.adjective !== undefined) {
    // "make that information publicly available to the public authorities"
    const np = nounPhraseAt(toks, pred.verb + 1, end);
    return { object: np === null ? null : nounPhraseSpan(np), recipient: toRecipientAfter(text, toks, pred.adjective + 1, end), preposition: "" };
  }
  // Prepositional phrases before the object ("submit to the Commission a report", "notify without undue delay the …").
  const before: Array<{ prep: string; span: Span }> = [];
  for (let guard = 0; guard < 3 && k <= end; guard++) {
    const t = toks[k];
    if (!t || t.pos !== "ADP" || prepInPredicate) break;
    const np = nounPhraseAt(toks, k + 1, end);
    if (np === null) break;
    const after = skipAdverbials(toks, np.to + 1, end);
    // Only a phrase followed directly by another noun phrase is a fronted adverbial; otherwise the clause's object is absent.
    if (nounPhraseAt(toks, after, end) === null) break;
    before.push({ prep: t.lower, span: nounPhraseSpan(np) });
    k = after;
  }
  // "that …", "whether …": a clause; "as regards …", "such as …": no object either.
  if (toks[k]?.lower === "that" || toks[k]?.lower === "whether" || toks[k]?.lower === "as") return { object: null, recipient: null, preposition: "" };
  // "may include implementing automated mechanisms", "contribute to reinforcing …": a gerund clause.
  const np = isGerund(toks[k], toks[k + 1]) ? null : nounPhraseAt(toks, k, end);
  let object: Span | null = np === null ? null : nounPhraseSpan(np);
  if (np !== null && object !== null) {
    // "policies and procedures", "the laws, regulations and administrative provisions": a
    // coordination of nouns is one object.
    let k2 = object.to + 1;
    for (let guard = 0; guard < 8; guard++) {
      const sep = toks[k2];
      const isFinal = sep?.pos === "CCONJ" || (sep?.value === "," && toks[k2 + 1]?.pos === "CCONJ");
      if (sep?.value !== "," && !isFinal) break;
      const at = k2 + (sep?.value === "," && isFinal ? 2 : 1);
      if (isBaseVerb(toks[at]) || MODALS.has(toks[at]?.lower ?? "")) break;
      const next = nounPhraseAt(toks, at, end);
      if (next === null || (next.determiner >= 0 && np.determiner < 0)) break;
      // "… the penalty, and the penalty is final": the start of a clause, not a listed thing.
      if (isFiniteVerb(toks, next.to + 1) || MODALS.has(toks[next.to + 1]?.lower ?? "")) break;
      // "delay or reject a transaction, or attempt to adversely affect": a verb, not a listed thing.
      if (
        next.from === next.to &&
        isListedVerb(toks[next.from]) &&
        toks[next.to + 1]?.lower === "to" &&
        (isBaseVerb(toks[next.to + 2]) || toks[next.to + 2]?.pos === "ADV")
      )
        break;
      k2 = next.to + 1;
      if (isFinal) {
        object = { from: object.from, to: next.to };
        break;
      }
    }
  }
  let recipient: Span | null = null;
  if (TELL.has(pred.lemma) || prepInPredicate) {
    const party = np === null ? null : { from: np.determiner >= 0 ? np.determiner : np.from, to: np.head };
    if (party !== null && TELL_PARTY_FIRST.has(pred.lemma) && isPartyPhrase(text, toks, party)) {
      // "notify the supervisory authority of the breach": the party is told, the breach is what;
      // "inform the competent authorities of the financial entities": one party.
      // "inform their clients that are potentially affected of any appropriate protection measures"
      let at = skipAdverbials(toks, party.to + 1, end);
      if (RELATIVES.has(toks[at]?.lower ?? "")) {
        let k = at + 1;
        while (k <= end && k - at < 8 && !["of", "about"].includes(toks[k]?.lower ?? "") && toks[k]?.value !== ",") k++;
        if (toks[k]?.lower === "of" || toks[k]?.lower === "about") at = k;
      }
      const prep = toks[at]?.lower ?? "";
      const what = prep === "of" || prep === "about" || prep === "on" ? nounPhraseAt(toks, at + 1, end) : null;
      if (what !== null && prep === "of" && at === party.to + 1 && isPartyPhrase(text, toks, nounPhraseSpan(what)) && np !== null && np.to > np.head) {
        recipient = object;
        object = null;
      } else {
        recipient = party;
        object = what === null ? null : nounPhraseSpan(what);
      }
    } else if (object !== null && pred.lemma === "provide" && toks[object.to + 1]?.lower === "with" && isPartyPhrase(text, toks, object)) {
      // "provide the data subject with the information"
      recipient = object;
      const what = nounPhraseAt(toks, object.to + 2, end);
      object = what === null ? null : nounPhraseSpan(what);
    } else if (TELL.has(pred.lemma)) {
      const fronted = before.find((b) => b.prep === "to" && isPartyPhrase(text, toks, b.span));
      recipient = fronted?.span ?? toRecipientAfter(text, toks, object === null ? k : object.to + 1, end);
    }
  }
  return { object, recipient, preposition: "" };
}

/** The first "to <party>" after the object, within the clause ("report incidents to the competent authority"). */
function toRecipientAfter(text: string, toks: readonly Tok[], from: number, end: number): Span | null {
  for (let i = from; i <= end && i - from < 30; i++) {
    const t = toks[i];
    if (!t) break;
    if (t.value === "," && RELATIVES.has(toks[i + 1]?.lower ?? "")) return null;
    if (t.lower !== "to") continue;
    const np = nounPhraseAt(toks, i + 1, end);
    if (np !== null && isPartyPhrase(text, toks, nounPhraseSpan(np))) return nounPhraseSpan(np);
  }
  return null;
}

/** A list item or requirement that opens with an imperative verb ("Limit system access …", "(A) … Conduct an assessment"). */
function imperativeStart(toks: readonly Tok[], from: number, to: number): number {
  let i = from;
  // Markers and labels before the verb: "(1)(i)", "Standard:", "Implementation specification:", "(A) Risk analysis (Required)."
  for (let guard = 0; guard < 40 && i <= to; guard++) {
    const t = toks[i];
    if (!t) return -1;
    if (!LIST_MARKER.test(t.value) && !isMarkerToken(toks, i)) break;
    i++;
  }
  const t = toks[i];
  if (!t || !/^[A-Z]/.test(t.value)) return -1;
  if (!IMPERATIVE_VERBS.has(t.lower)) return -1;
  // "Report incidents" is imperative; "Report of the Secretary" is a title.
  const next = toks[i + 1];
  if (next === undefined || next.lower === "of" || next.pos === "AUX" || MODALS.has(next.lower)) return -1;
  if (next.pos === "VERB" && !isBaseVerb(next) && next.value !== ",") return -1;
  return i;
}

function clean(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

interface Lead {
  subjects: string[];
  trigger: Trigger;
}

// Long function: one pass over a section's sentences applying the grammar above in order.
/** English obligations, prohibitions, permissions and recommendations in `text`, in order. */
export function findEnglishObligations(nlp: EnglishNlp, text: string, options: EnglishObligationOptions = {}): Obligation[] {
  const includeShould = options.includeShould ?? true;
  const { toks, sentences } = tokenize(nlp, text);
  const out: Obligation[] = [];
  let previousSubjects: string[] = [];
  let lead: Lead | null = null;
  // "Regulation (EU) 2016/1011" cut to "Regulation" by the chunker is a citation, not a thing.
  const spanText = (s: Span): string => {
    let from = s.from;
    while (from < s.to && isDeterminer(toks[from])) from++;
    const at = toks[from];
    if (at !== undefined && matchInstrumentAt(text, at.start) !== null) return "";
    // Articles go; "this"/"such" stay for naming to see ("this Regulation" is the document itself).
    return clean(textOf(text, toks, s.from, s.to)).replace(/^(?:the|a|an)\s+/iu, "");
  };

  const emit = (
    subjects: string[],
    trig: Trigger,
    sFrom: number,
    sTo: number,
    segStart: number,
    segEnd: number,
    verbIndex: number,
    implicitModal: boolean,
  ): void => {
    const first = toks[sFrom];
    const last = toks[sTo];
    if (!first || !last) return;
    const pred = predicateAt(toks, verbIndex, segEnd);
    const comp = complementsOf(text, toks, pred, segEnd);
    // An imperative list header ("Implement: (A) Security reminders") names its objects in the list.
    if (implicitModal && comp.object === null) return;
    const verbText = clean(`${textOf(text, toks, pred.verb, pred.to)}${pred.adjective === undefined ? "" : ` ${toks[pred.adjective]?.value ?? ""}`}`);
    const predicate = clean(`${trig.text} ${verbText}${comp.preposition === "" ? "" : ` ${comp.preposition}`}`).toLowerCase();
    const segFrom = toks[segStart]?.start ?? first.start;
    // A time limit printed in the list a colon opens after the verb belongs to an item, not to this duty.
    const colon = toks.slice(pred.to + 1, segEnd + 1).findIndex((t) => t.value === ":");
    const segTo = toks[colon < 0 ? segEnd : pred.to + colon]?.end ?? last.end;
    const deadlines = findDeadlines(text.slice(segFrom, segTo), "en");
    const sentence = clean(text.slice(first.start, last.end));
    for (const subject of subjects) {
      const o: Obligation = {
        subject,
        predicate,
        object: comp.object === null ? "" : spanText(comp.object),
        modality: trig.modality,
        negated: trig.negated,
        span: { start: first.start, end: last.end },
        sentence,
      };
      if (comp.recipient !== null) o.recipient = spanText(comp.recipient);
      if (deadlines.length > 0) o.deadline = deadlines.join("; ");
      if (implicitModal) o.implicit = true;
      const trigFrom = toks[implicitModal ? verbIndex : trig.first];
      const trigTo = toks[implicitModal ? verbIndex : trig.last];
      if (trigFrom && trigTo) o.trigger = { start: trigFrom.start, end: trigTo.end };
      out.push(o);
    }
  };

  for (const [sFrom, sTo] of sentences) {
    const first = toks[sFrom];
    const last = toks[sTo];
    if (!first || !last) continue;
    const sentence = text.slice(first.start, last.end);
    if (!PREFILTER.test(sentence)) {
      // An item of a "must:" list, or an imperative requirement of a document that addresses a party.
      const verbAt = imperativeStart(toks, sFrom, sTo);
      if (verbAt < 0) continue;
      // The addressee binds the requirement's statement, the section's first sentence, not its discussion.
      const statement = options.addressee !== undefined && sFrom === sentences[0]?.[0];
      const implied: Lead | null =
        lead ??
        (statement && options.addressee !== undefined
          ? { subjects: [options.addressee], trigger: { first: verbAt, last: verbAt, modality: "must", negated: false, text: "must" } }
          : null);
      if (implied !== null) emit(implied.subjects, implied.trigger, sFrom, sTo, verbAt, clauseEnd(toks, verbAt, sTo), verbAt, true);
      continue;
    }
    const found = triggers(toks, sFrom, sTo, includeShould, text);
    let sentenceSubjects: string[] = [];
    found.forEach((trig, n) => {
      const segStart = n === 0 ? sFrom : (found[n - 1]?.last ?? sFrom) + 1;
      const segEnd = Math.min(sTo, (found[n + 1]?.first ?? sTo + 1) - 1);
      let subjects: string[] = [];
      const chunk = subjectChunk(toks, segStart, trig.first, n === 0);
      let beforeModal = trig.first - 1;
      while (beforeModal > segStart && toks[beforeModal]?.pos === "ADV") beforeModal--;
      const coordinated = n > 0 && toks[beforeModal]?.pos === "CCONJ";
      const found2 = chunk === null || coordinated ? { phrases: [], relative: -1 } : subjectIn(toks, chunk);
      const openingSentence = n === 0 && toks[beforeModal]?.pos === "CCONJ" ? nounPhraseAt(toks, skipListMarkers(toks, sFrom, trig.first), trig.first) : null;
      if (openingSentence !== null && ["DET", "NOUN", "PROPN", "ADJ"].includes(toks[skipListMarkers(toks, sFrom, trig.first)]?.pos ?? "")) {
        // "Commercial telecommunications services are commonly based on … and may also include": the
        // modal shares the subject of the sentence's first verb.
        subjects = [spanText(nounPhraseSpan(openingSentence))];
      } else if (coordinated) {
        // "… and shall notify", "… or refuse …, and must give": a coordinated modal shares the
        // subject of the sentence's main clause (not of a relative clause in between).
        subjects = sentenceSubjects.length > 0 ? sentenceSubjects : previousSubjects;
      } else if (found2.phrases.length > 0) {
        // "EBA, ESMA or EIOPA shall" after an introductory phrase: the whole list, not its tail.
        const list = chunk !== null && found2.phrases.length >= 2 ? coordinatedEndingAt(toks, chunk.to, segStart) : [];
        const phrases = list.length > found2.phrases.length && (list[0]?.from ?? chunk?.from ?? 0) < (chunk?.from ?? 0) ? list : found2.phrases;
        subjects = phrases.map((p) => {
          // "the solutions organizations may use": two plural nouns before the modal are a phrase and
          // the subject of a relative clause without its pronoun; the subject is the second.
          const a = toks[p.to - 1];
          const b = toks[p.to];
          const direct = beforeModal === p.to;
          if (
            direct &&
            phrases.length === 1 &&
            a !== undefined &&
            b !== undefined &&
            p.to > p.from &&
            isNounLike(toks, p.to - 1) &&
            /[^s]s$/.test(a.lower) &&
            /[^s]s$/.test(b.lower)
          )
            return spanText({ from: p.to, to: p.to });
          return spanText(nounPhraseSpan(p));
        });
        const headWord = toks[found2.phrases[0]?.from ?? -1]?.lower ?? "";
        if (found2.phrases.length === 1 && PRONOUNS.has(headWord) && previousSubjects.length > 0) subjects = previousSubjects;
      } else if ("pronoun" in found2 && found2.pronoun === true) {
        subjects = previousSubjects;
      } else if (found2.relative >= 0) {
        // "… to the competent authority, which shall immediately transmit": the antecedent acts.
        let k = found2.relative - 1;
        if (toks[k]?.value === ",") k--;
        subjects = coordinatedEndingAt(toks, k, sFrom).map((p) => spanText(nounPhraseSpan(p)));
      } else if (n > 0 && (chunk === null || toks.slice(chunk.from, chunk.to + 1).every((t) => t.pos === "CCONJ" || t.pos === "PUNCT" || t.pos === "ADV"))) {
        subjects = previousSubjects;
      }
      subjects = subjects.filter((s) => !PRONOUNS.has(s.toLowerCase()) && !RELATIVES.has(s.toLowerCase()));
      let verb = mainVerb(toks, trig, segEnd);
      // "Personal data shall be: (a) processed lawfully …": the verb opens a list the rules do not split.
      if (verb >= 0 && toks[predicateAt(toks, verb, segEnd).to + 1]?.value === ":") verb = -1;
      if (verb < 0) {
        // "A covered entity must, in accordance with § 164.306:" introduces a list of imperatives.
        const colon = toks.slice(trig.last + 1, segEnd + 2).findIndex((t) => t.value === ":");
        if (colon >= 0 && subjects.length > 0) lead = { subjects, trigger: trig };
        return;
      }
      if (subjects.length === 0) return;
      emit(subjects, trig, sFrom, sTo, segStart, segEnd, verb, false);
      previousSubjects = subjects;
      if (n === 0) sentenceSubjects = subjects;
    });
  }
  return out;
}
