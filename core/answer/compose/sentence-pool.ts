import { shortDocumentName } from "../../citations/index.ts";
import type { Embedder } from "../../model/embedder.ts";
import { dot } from "../../text/index.ts";
import { ClauseGraphError } from "../../model/errors.ts";
import type { RankedSection } from "../../model/retrieval-types.ts";
import type { TripletRecord } from "../../model/graph-records.ts";
import { contentStems, coverage, idfTable, matchedTerms, nameStems, queryTerms, type QueryTerms, type TextLanguage } from "./lexical.ts";
import type { LanguageResources } from "../language-resources.ts";
import { sentenceUnits, type SentenceUnit } from "./sentence-units.ts";
import { nearWordCoverage } from "./near-words.ts";
import { alsoCued, asksForLength, cueStrength, IMPERATIVE } from "./answer-cues.ts";
import { namesSection } from "./answer-ranking.ts";
import type { AnswerHints } from "../../model/answer-types.ts";
import { provisionRole, rolePrior } from "./provision-role.ts";
import { emptyFeatures, sentenceScore } from "./sentence-score.ts";
import { questionParties } from "../question/question-parties.ts";
import { noticeRecipient, sameRecipient } from "./notice-recipient.ts";
import { countsIn, thresholdAgreement, thresholdsIn } from "./quantity-thresholds.ts";
import type { SentenceFeatures } from "../../model/sentence-features.ts";
import { LIST_TYPES, MARKED_POINT, WEAK_CUE_TYPES } from "./answer-shapes.ts";

// Every sentence of the top results, scored for the question. The context (what the model reads)
// and the extractive answer (what is quoted without a model) are both chosen from this pool, so
// the two modes agree on what is relevant.

/** Results whose sentences are considered; lower-ranked ones rarely hold the answer. */
export const POOL_RESULTS = 10;
/** Sentences embedded per question: enough to re-rank the plausible ones, cheap on a CPU. */
const MAX_EMBEDDED = 96;
/** Coverage a sentence needs to count as answering part of the question. */
const MIN_COVERAGE = 0.3;
/** Long questions (enumerations) spread their weight: two of their words in a sentence also count. */
const MIN_COVERAGE_TWO_TERMS = 0.15;

/** A heading covering this much of the question makes its section's sentences answers by themselves. */
const HEADING_ANSWERS = 0.8;
// "(11) 'consent' of the data subject means …" (EU: quoted, a few words may follow the term) and
// "Covered entity means: …" (US CFR: unquoted, capitalised, at the start of the sentence).
const DEFINED_TERM =
  /^[(\d).\s]*(?:['‘’"“«]([^'‘’"“”»]{2,80})['’"”»](?:\s+[\w-]+){0,5}?|([A-Z][A-Za-z-]*(?:\s+[a-z][A-Za-z-]*){0,4}?))\s+(?:means|shall mean|is defined as|si intende)\b/;

/** Singular, lower case, one space: "Covered entities" and "covered entity" are one term. */
function termKey(text: string): string {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/ies$/, "y").replace(/(?<=[^s])s$/, ""))
    .join(" ");
}
/**
 * A glossary prints a term and its definition on one line, without "means": "Risk A measure of the
 * extent to which …" (NIST SP 800-30 Appendix B). The term is the line's opening words when the
 * question asks about exactly them and the definition starts right after, with an article or a
 * source in brackets ("Risk Assessment The process …" defines another term, not "risk").
 */
const GLOSSARY_DEFINITION_START = /^(?:(?:A|An|The|Any|Un|Una|Uno|Il|La|Lo|I|Gli|Le)$|L['’]|\[)/;
function glossaryEntryAsked(text: string, askedKey: string): boolean {
  const words = text.replace(/^[\s(\d).•]*/, "").split(/\s+/);
  for (let n = 1; n <= Math.min(5, words.length - 1); n++) {
    const term = words
      .slice(0, n)
      .join(" ")
      .replace(/[:–—-]+$/, "");
    if (!/^[A-Z]/.test(term)) return false;
    const next = words[n] ?? "";
    if (askedKey.includes(` ${termKey(term)} `) && (GLOSSARY_DEFINITION_START.test(next) || /[:–—]$/.test(words[n - 1] ?? ""))) return true;
  }
  return false;
}

const DEFINITION_WORDS =
  "define defines defined definition definitions meaning means mean term terms definire definito definizione definizioni significato intende";

/** Where a requirement's discussion begins (NIST SP 800-171 prints "DISCUSSION" after each requirement). */
const DISCUSSION = /^(?:DISCUSSION|Discussion:|Supplemental Guidance:?|SUPPLEMENTAL GUIDANCE|Note:|NOTE:|Commento|Nota:)/;
/** The weight of a sentence in a requirement's discussion, or giving an example, against the requirement itself. */
const DISCUSSION_PRIOR = 0.75;
/**
 * The weight of a sentence of a section on a notice to another recipient than the one asked about
 * (notice-recipient.ts): "Within how many days must a covered entity notify individuals …?" had led
 * with § 164.408(c), under "Notification to the Secretary", over § 164.404(b)'s 60 days.
 */
const OTHER_RECIPIENT_PRIOR = 0.8;
const EXAMPLE = /^(?:For example|For instance|E\.g\.|Ad esempio|Per esempio)\b/i;
/** A requirement as CFR standards and NIST requirements word it: an imperative verb first, after any marker. */
const SHALL = /\b(?:shall|must|is required to|are required to|deve|devono|è tenut[oa]|sono tenut[ie])\b/i;
/**
 * A sentence opening with a pronoun standing for what the sentence before it named ("He or she
 * shall not be dismissed …" after "The data protection officer shall …"; "It shall apply from …").
 */
const ANAPHOR = /^(?:He or she|She or he|He|She|It|They|Its|Their|His or her|Esso|Essa|Essi|Esse|Egli|Ella)\b/;

export interface Candidate {
  /** Index into the pool's results. */
  resultIndex: number;
  result: RankedSection;
  unit: SentenceUnit;
  stems: Set<string>;
  /**
   * IDF-weighted share of the question's words the sentence has, 0–1 (its heading's words count
   * too when the heading alone covers the question: "What does Article 33 require?").
   */
  coverage: number;
  /** Cosine with the question, when an embedder was given and the sentence was embedded. */
  similarity: number | null;
  /** Whether the sentence answers part of the question (else it is context at most). */
  relevant: boolean;
  /** Triplets whose evidence lies in this sentence. */
  triplets: TripletRecord[];
  /** What the score is made of (sentence-score.ts). */
  features: SentenceFeatures;
  /** In a requirement's discussion, or giving an example: it explains a rule rather than stating one. */
  explanatory: boolean;
  /** The weight of its section's role (provision-role.ts). */
  prior: number;
  /** What ranks candidates: sentenceScore(features, prior). */
  score: number;
  vector: Float32Array | null;
}

export interface SentencePool {
  question: string;
  terms: QueryTerms;
  idf: (stem: string) => number;
  candidates: Candidate[];
  results: readonly RankedSection[];
  embedder: Embedder | null;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ClauseGraphError("CANCELLED", "Answering cancelled.");
}

/** A modal or auxiliary the acting party follows in a question ("must a processor …", "does the controller …"). */
const QUESTION_MODAL = /^(?:must|shall|should|does|do|did|can|may|will|has|have|is|are|deve|devono|può|possono)$/i;
/** Where a provision's subject ends: its first modal ("The processor shall notify the controller …"). */
const SENTENCE_MODAL = /\b(?:shall|must|may|should|is required to|are required to|is obliged to|deve|devono|può|possono)\b/i;

/** The stems of the question's party that follows a modal (the one asked to act), or null. */
function actorOf(question: string, parties: readonly string[][], language: TextLanguage): string[] | null {
  const words = question.split(/[^\p{L}\p{N}-]+/u).filter((w) => w !== "");
  for (let i = 0; i < words.length; i++) {
    if (!QUESTION_MODAL.test(words[i] ?? "")) continue;
    const after = new Set(contentStems(words.slice(i + 1, i + 6).join(" "), language));
    const party = parties.find((p) => p.every((st) => after.has(st)));
    if (party !== undefined) return party;
  }
  return null;
}

/** Where a subject excludes a party, to the next comma: "that is not a …", "other than …", "diversi da …". */
const EXCLUDED = /\b(?:not|other than|except(?: for)?|excluding|non|divers[oaie] da\w*|ad eccezione d\w*|tranne)\b[^,;]*/giu;

const EXEMPTION_QUESTION = /\b(?:exempt\w*|exclu\w+|exception\w*|except|apply|applies|esent\w*|esclus\w*|eccezion\w*|applica\w*)\b/i;

/** Whether the sentence's subject (before its first modal) names the party. */
function subjectHas(text: string, party: readonly string[], language: TextLanguage, keepExcluded: boolean): boolean {
  const modal = SENTENCE_MODAL.exec(text);
  if (modal === null) return false;
  // A party the subject excludes is not the one acting: "A health plan that is not a small health
  // plan must comply … by April 20, 2005" does not say when small health plans must comply. Unless
  // the exclusion is what is asked: "Are microenterprises exempt from …?" is answered by
  // "Financial entities, other than microenterprises, shall …".
  const head = text.slice(0, modal.index);
  const subject = new Set(contentStems(keepExcluded ? head : head.replace(EXCLUDED, " "), language));
  return party.every((st) => subject.has(st));
}

/** Words that name a document or a unit of it: they route retrieval, not answer content. */
const ROUTING_WORDS = ["article", "articles", "art", "regulation", "directive", "section", "paragraph", "act", "law", "rule"];

function overlaps(t: TripletRecord, unit: SentenceUnit): boolean {
  return t.start < unit.end && t.end > unit.start;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  // Vectors are L2-normalised (Embedder contract): the dot product is the cosine.
  return dot(a, b);
}

// Long function: every sentence feature is computed in one pass over the pool.
export async function buildSentencePool(
  question: string,
  results: readonly RankedSection[],
  triplets: readonly TripletRecord[],
  embedder: Embedder | null,
  resources: LanguageResources,
  signal?: AbortSignal,
  hints?: AnswerHints,
  earlierParts?: ReadonlyMap<string, string>,
): Promise<SentencePool> {
  const top = results.slice(0, POOL_RESULTS);
  // Words are matched in the question's language (an Italian question's stems fold Italian
  // endings); `stems` stay the shared English-light ones that citations and verification use.
  const language = hints?.language ?? "en";
  const matchStems = (text: string): Set<string> => new Set(contentStems(text, language));
  const ignore = new Set<string>();
  for (const w of ROUTING_WORDS) for (const s of contentStems(w, language)) ignore.add(s);
  // Acronyms only ("GDPR", "NIST"): a clipped title's words may well be what the question is about.
  for (const r of top) {
    const name = shortDocumentName(r.document);
    if (name.length > 24) continue;
    const acronyms = name.split(/[\s-]+/).filter((w) => /^[A-Z][A-Z0-9]{1,5}$/.test(w));
    for (const s of nameStems(acronyms.join(" "))) ignore.add(s);
  }
  // A definition question's own verb ("How does NIST SP 800-30 define risk?") and the words the
  // retrieval query adds for it ("means definitions") say what kind of answer is wanted, which the
  // cue feature weighs; as words to match they made a glossary's preamble ("… provides
  // definitions for security terminology") outrank the entry defining the term.
  if (hints?.answerType === "definition") for (const s of contentStems(DEFINITION_WORDS, language)) ignore.add(s);
  const terms = queryTerms(question, ignore, language);
  const bySection = new Map<string, TripletRecord[]>();
  for (const t of triplets) {
    const list = bySection.get(t.sectionId) ?? [];
    list.push(t);
    bySection.set(t.sectionId, list);
  }
  const raw: Array<Omit<Candidate, "coverage" | "score" | "relevant" | "features" | "prior" | "explanatory">> = [];
  /** Per candidate, its words as the question's language stems them (`stems` for English). */
  const matched: Array<Set<string>> = [];
  const headings: Set<string>[] = [];
  /** Per candidate, the words of the item it continues ("(b) Standard: Workstation use." for "Implement policies …"). */
  const itemWords: Array<Set<string> | null> = [];
  top.forEach((result, resultIndex) => {
    headings[resultIndex] = matchStems(`${result.section.label} ${result.section.heading}`);
    const sectionTriplets = bySection.get(result.section.id) ?? [];
    let opening: { pinpoint: string; stems: Set<string> } | null = null;
    const before = earlierParts?.get(result.section.id);
    for (const unit of sentenceUnits(result.section.text, resources, { label: result.section.label, ...(before === undefined ? {} : { before }) })) {
      const stems = new Set(contentStems(unit.text));
      const words = language === "en" ? stems : matchStems(unit.text);
      matched.push(words);
      // A CFR or EU list item runs several sentences under one marker; the first often names what
      // the item is about ("Standard: Workstation use.") and the next says what to do.
      if (unit.pinpoint !== null && /^\(/.test(unit.text)) opening = { pinpoint: unit.pinpoint, stems: words };
      else if (opening !== null && unit.pinpoint !== opening.pinpoint) opening = null;
      itemWords.push(opening !== null && opening.stems !== words ? opening.stems : null);
      raw.push({
        resultIndex,
        result,
        unit,
        stems,
        similarity: null,
        triplets: sectionTriplets.filter((t) => overlaps(t, unit)),
        vector: null,
      });
    }
  });
  const idf = idfTable(matched);
  const glossary = top.map((r) => provisionRole(r.section) === "definitions");
  const headingCoverage = headings.map((h) => coverage(terms, idf, h));
  const type = hints?.answerType ?? "other";
  const partyStems = (hints?.parties ?? []).map((p) => contentStems(p, language)).filter((p) => p.length > 0);
  const actor = actorOf(question, partyStems, language);
  // (The query the pool scores carries words retrieval added: "shall apply from" for a date question.)
  const asksExemption = (type === "yes-no" || type === "scope") && EXEMPTION_QUESTION.test(question);
  const askedThresholds = thresholdsIn(question);
  const askedCounts = askedThresholds.length > 0 ? [] : countsIn(question);
  const asksList = LIST_TYPES.has(type);
  const askedRecipient = noticeRecipient(question);
  const otherRecipient = top.map((r) => {
    const recipient = askedRecipient === null ? null : noticeRecipient(r.section.heading);
    return recipient !== null && askedRecipient !== null && !sameRecipient(recipient, askedRecipient);
  });
  // Rule "a notice goes to whom the question asks", sentence by sentence: one provision often
  // prints the report to the authority and the notice to clients side by side.
  const toOtherRecipient = (text: string): boolean => {
    if (askedRecipient === null) return false;
    const recipient = noticeRecipient(text);
    return recipient !== null && !sameRecipient(recipient, askedRecipient);
  };
  // "Who must a covered entity designate?": the sentence naming a party the question does not
  // ("… must designate a privacy official") says who; any provision names the covered entity.
  const askedParties = new Set(hints?.parties ?? []);
  const namesOtherParty = (text: string): boolean => questionParties(text).some((p) => !askedParties.has(p));
  const length = asksForLength(question);
  const askedKey = ` ${termKey(question.replace(/[^\p{L}\p{N}\s-]/gu, " "))} `;
  // Sentences of a requirement's discussion: from its "DISCUSSION" marker to the end of the section.
  const discussion = new Set<number>();
  let inDiscussion = -1;
  raw.forEach((c, i) => {
    if (c.resultIndex !== inDiscussion && DISCUSSION.test(c.unit.text)) inDiscussion = c.resultIndex;
    if (c.resultIndex === inDiscussion) discussion.add(i);
  });
  // The paragraph each sentence sits in (paragraphKey): its sentences' words together.
  const paragraphStems = new Map<string, Set<string>>();
  const keys = raw.map((c) => paragraphKey(c.resultIndex, c.unit, c.result.section.text));
  raw.forEach((_, i) => {
    const key = keys[i] ?? "";
    const set = paragraphStems.get(key) ?? new Set<string>();
    for (const st of matched[i] ?? []) set.add(st);
    paragraphStems.set(key, set);
  });
  const paragraphCoverage = new Map([...paragraphStems.entries()].map(([key, set]) => [key, coverage(terms, idf, set)]));
  /** What each candidate is embedded as: itself, or a list's lead-in with its points. */
  const embedText: string[] = [];
  const candidates: Candidate[] = raw.map((c, i) => {
    // The heading raises every sentence of its section alike: it ranks, it does not make relevant.
    // The item's opening words count as the sentence's own: they are its subject.
    const item = itemWords[i];
    const words = matched[i] ?? c.stems;
    // Rule "a pronoun stands for the sentence before": that sentence's words count as the sentence's
    // own, within one paragraph, as an item's opening words do.
    const previous = i > 0 && ANAPHOR.test(c.unit.text) && keys[i - 1] === keys[i] ? matched[i - 1] : undefined;
    const subject = [...(item ?? []), ...(previous ?? [])];
    const own = coverage(terms, idf, subject.length > 0 ? new Set([...words, ...subject]) : words);
    const withHeading = coverage(terms, idf, words, headings[c.resultIndex]);
    const cov = (headingCoverage[c.resultIndex] ?? 0) >= HEADING_ANSWERS ? withHeading : own;
    const relevant = cov >= MIN_COVERAGE || (cov >= MIN_COVERAGE_TWO_TERMS && matchedTerms(terms, words) >= 2);
    const features = emptyFeatures();
    features.heading = headingCoverage[c.resultIndex] ?? 0;
    // How close its section came to the best one (answer-ranking.ts), not 1 / rank: a provision a
    // hair behind the first counted half as much and lost to a weaker sentence of the first (GDPR
    // Art. 17 behind Art. 18 for "erasure"). The weights were refitted for it (bench:fit-answer).
    features.rank = c.result.standing ?? 1 / (c.resultIndex + 1);
    features.triplet = c.triplets.length > 0 ? 1 : 0;
    const cue = cueStrength(type, c.unit.text, length, hints?.modality);
    features.cue = cue === 0 ? 0 : (cue === 2 && !WEAK_CUE_TYPES.has(type)) || (type === "party" && namesOtherParty(c.unit.text)) ? 1 : 0.5;
    features.namedProvision = hints !== undefined && namesSection(hints.provisions, c.result.section.label) ? 1 : 0;
    const definedMatch = DEFINED_TERM.exec(c.unit.text);
    const defined = definedMatch?.[1] ?? definedMatch?.[2];
    features.definedTerm =
      (defined !== undefined && askedKey.includes(` ${termKey(defined)} `)) || (glossary[c.resultIndex] === true && glossaryEntryAsked(c.unit.text, askedKey))
        ? 1
        : 0;
    const leadIn = c.unit.text.trimEnd().endsWith(":");
    features.listLeadIn = leadIn && asksList ? 1 : 0;
    let unitText = c.unit.text;
    if (leadIn) {
      // Rule "a list answers a question not asking for it through one point": the union of many
      // points' words covers a question by chance, so unless the list is asked for, the lead-in
      // counts with its best point alone.
      const union = new Set(words);
      let bestPoint = 0;
      for (let j = i + 1; j < raw.length; j++) {
        const next = raw[j];
        if (next === undefined || next.resultIndex !== c.resultIndex || (!MARKED_POINT.test(next.unit.text) && next.unit.pinpoint === null)) break;
        const point = matched[j] ?? [];
        if (asksList) for (const st of point) union.add(st);
        else bestPoint = Math.max(bestPoint, coverage(terms, idf, new Set([...words, ...point])));
        unitText += ` ${next.unit.text}`;
      }
      features.listCoverage = asksList ? coverage(terms, idf, union) : bestPoint;
    }
    // A list's lead-in and its points are one answer ("… submit the following to the relevant
    // competent authority: (a) an initial notification; …"): coverage and meaning are theirs together.
    const coverageOf = leadIn ? Math.max(cov, features.listCoverage) : cov;
    embedText.push(unitText);
    features.coverage = coverageOf;
    features.normative = IMPERATIVE.test(c.unit.text) ? 1 : SHALL.test(c.unit.text) ? 0.5 : 0;
    features.party = partyStems.some((p) => p.every((st) => words.has(st))) ? 1 : 0;
    features.actor = actor !== null && subjectHas(c.unit.text, actor, language, asksExemption) ? 1 : 0;
    features.threshold = thresholdAgreement(askedThresholds, c.unit.text, askedCounts);
    features.paragraph = paragraphCoverage.get(keys[i] ?? "") ?? 0;
    features.alsoCue = (hints?.alsoAsks ?? []).some((t) => alsoCued(t, c.unit.text)) ? 1 : 0;
    const explanatory = discussion.has(i) || EXAMPLE.test(c.unit.text);
    const prior =
      rolePrior(provisionRole(c.result.section), type) *
      (explanatory ? DISCUSSION_PRIOR : 1) *
      (otherRecipient[c.resultIndex] === true || toOtherRecipient(c.unit.text) ? OTHER_RECIPIENT_PRIOR : 1);
    // A definition question is answered by the sentence defining its term, however few of its
    // other words that sentence repeats ("What makes consent valid under the GDPR definition?").
    const definesAsked = features.definedTerm === 1 && type === "definition";
    // Rule "an instruction may answer in other words": a requirement stated as an instruction
    // ("Ensure equipment removed for off-site maintenance is sanitized …", as NIST and the CFR
    // print them) from which the graph read a triplet answers on its score, though it repeats
    // none of the question's words: auditors ask about a laptop sent back for a warranty fix.
    const instructs = features.triplet === 1 && features.normative === 1;
    return {
      ...c,
      coverage: cov,
      relevant: relevant || definesAsked || features.coverage >= MIN_COVERAGE || instructs,
      features,
      explanatory,
      prior,
      score: sentenceScore(features, prior),
    };
  });
  if (embedder !== null && candidates.length > 0) {
    await addSimilarity(question, candidates, embedText, embedder, signal);
    if (language === "en") await addNearWords(question, candidates, terms, idf, embedder, signal);
  }
  return { question, terms, idf, candidates, results: top, embedder };
}

/**
 * The paragraph a sentence sits in, as auditors cite it: an EU article's numbered paragraph ("3",
 * its points included), a CFR section's paragraph and subparagraph ("(c)(1)"); without markers,
 * the line of text (the section's own paragraphs are its lines).
 */
function paragraphKey(resultIndex: number, unit: SentenceUnit, text: string): string {
  if (unit.paragraph !== null) return `${resultIndex}|${unit.paragraph}`;
  const markers = unit.pinpoint?.match(/\([^)]+\)/g) ?? [];
  if (markers.length > 0) return `${resultIndex}|${markers.slice(0, /^\(\d+\)$/.test(markers[0] ?? "") ? 1 : 2).join("")}`;
  return `${resultIndex}|@${text.lastIndexOf("\n", unit.start)}`;
}

/** The best-scored sentences, as many as a question affords to re-rank on a CPU (MAX_EMBEDDED). */
function worthReranking(candidates: readonly Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => b.score - a.score).slice(0, MAX_EMBEDDED);
}

/** The near-word credit (near-words.ts) of the sentences worth re-ranking. */
async function addNearWords(
  question: string,
  candidates: Candidate[],
  terms: QueryTerms,
  idf: (stem: string) => number,
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<void> {
  const chosen = worthReranking(candidates);
  throwIfAborted(signal);
  const near = await nearWordCoverage(embedder, {
    question,
    required: terms.required,
    idf,
    sentences: chosen.map((c) => ({ text: c.unit.text, stems: c.stems })),
  });
  throwIfAborted(signal);
  chosen.forEach((c, i) => {
    c.features.nearWords = near[i] ?? 0;
    // What a near word says counts toward answering part of the question, as the word itself would.
    if (c.coverage + c.features.nearWords >= MIN_COVERAGE) c.relevant = true;
    c.score = sentenceScore(c.features, c.prior);
  });
}

/**
 * Embedding similarity as a bonus, scaled within the pool: static word-vector models give every
 * pair of legal sentences a high cosine, so only how far a sentence stands above the pool's median
 * says anything.
 */
async function addSimilarity(question: string, candidates: Candidate[], texts: readonly string[], embedder: Embedder, signal?: AbortSignal): Promise<void> {
  const textOf = new Map(candidates.map((c, i) => [c, texts[i] ?? c.unit.text]));
  const chosen = worthReranking(candidates);
  throwIfAborted(signal);
  const [q] = await embedder.embedQueries([question]);
  throwIfAborted(signal);
  const vectors = await embedder.embedDocuments(chosen.map((c) => textOf.get(c) ?? c.unit.text));
  throwIfAborted(signal);
  if (q === undefined) return;
  chosen.forEach((c, i) => {
    const v = vectors[i];
    if (v === undefined) return;
    c.vector = v;
    c.similarity = cosine(q, v);
  });
  const sims = chosen.map((c) => c.similarity ?? 0).sort((a, b) => a - b);
  const median = sims[Math.floor(sims.length / 2)] ?? 0;
  const max = sims[sims.length - 1] ?? 0;
  if (max <= median) return;
  for (const c of chosen) {
    c.features.similarity = Math.max(0, Math.min(1, ((c.similarity ?? 0) - median) / (max - median)));
    c.score = sentenceScore(c.features, c.prior);
  }
}
