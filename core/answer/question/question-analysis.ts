import type { AnswerHints } from "../../model/answer-types.ts";
import { findCrossReferences } from "../../extract/cross-references.ts";
import { findInstrumentMentions } from "../../names/instrument-names.ts";
import { tokenize } from "../../text/index.ts";
import { classifyAnswerType } from "./answer-type.ts";
import type { LibraryNames, QuestionAnalysis } from "../../model/question-analysis-types.ts";
import type { LanguageResources } from "../language-resources.ts";
import { isFunctionWord } from "../compose/lexical.ts";
import { questionParties } from "./question-parties.ts";
import { documentScope } from "./question-scope.ts";

// One reading of a question, made once per question and passed down (engine.ask → retrieval
// scope, the not-in-library refusal, the extractive answer's lead sentence): what it asks for,
// which documents, provisions and parties it names, which known instruments it names that the
// library lacks, and the words the answering sentence should contain. No model: rules, the
// instrument registry (core/names/) and wink-nlp's lemmas for English (cheap per question once
// the pipeline has loaded).

export type { AnswerType, LibraryNames, QuestionAnalysis, QuestionScope, YesNoModality } from "../../model/question-analysis-types.ts";

// ---- language ----

const ITALIAN_MARKERS = new Set(
  "il lo la gli le di del della dello dei degli delle che chi quale quali quanto quanti quante entro deve devono può possono è sono per con nel nella nei nelle alla alle al dal dalla cosa come quando dove perché una uno degli sul sulla non ai agli anche secondo ogni presso essere viene vengono ed o sua suo loro".split(
    " ",
  ),
);
const ENGLISH_MARKERS = new Set(
  "the a an of to is are what which who whom when how must shall does do can may under for with and or by within should be has have from that this it its their there any".split(
    " ",
  ),
);

function detectLanguage(question: string): "en" | "it" {
  let it = 0;
  let en = 0;
  for (const w of tokenize(question)) {
    if (ITALIAN_MARKERS.has(w)) it++;
    if (ENGLISH_MARKERS.has(w)) en++;
  }
  // "l'", "dell'", "all'": elided articles are Italian only.
  it += (question.match(/\b(?:l|dell|all|nell|dall|sull|un)['’]\p{L}/giu) ?? []).length;
  return it > en ? "it" : "en";
}

// ---- provisions ----

const INSTRUMENT_TAIL = /\s+(?:of|under|in|del|della|dello|dei|degli|delle|dal|dalla)\s+.*$/i;
const EXTRA_PROVISIONS = [
  /\b(?:Recitals?|considerand[oi])\s+\d+/gi,
  /\b(?:paragrafo|par\.|punto)\s+\d+(?:\.\d+)*/gi,
  /(?<![\d.])\d{1,2}\.\d{1,2}\.\d{1,2}(?![\d.])/g,
];

interface Provision {
  raw: string;
  labels: string[];
  start: number;
  end: number;
}

function findProvisions(question: string, language: "en" | "it"): Provision[] {
  const kinds = language === "it" ? (["italian", "eu"] as const) : (["eu", "cfr"] as const);
  const found: Provision[] = [];
  for (const kind of kinds) {
    for (const ref of findCrossReferences(question, { documentKind: kind, language: kind === "italian" ? "it" : "en" })) {
      const labels = ref.targets.flatMap((t) => (t.label === null ? [] : [t.label]));
      if (labels.length === 0) continue;
      found.push({ raw: ref.raw.replace(INSTRUMENT_TAIL, "").trim(), labels, start: ref.start, end: ref.end });
    }
  }
  for (const re of EXTRA_PROVISIONS) {
    for (const m of question.matchAll(re)) {
      const raw = m[0].trim();
      const label = /^(?:recital|considerand)/i.test(raw) ? `Recital ${raw.replace(/\D+/g, "")}` : raw.replace(/^(?:paragrafo|par\.|punto)\s+/i, "");
      found.push({ raw, labels: [label], start: m.index, end: m.index + m[0].length });
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Provision[] = [];
  for (const p of found) if (!kept.some((k) => p.start < k.end && k.start < p.end)) kept.push(p);
  return kept.sort((a, b) => a.start - b.start);
}

// ---- focus terms ----

/** Words of asking and of regulation in general: they are in nearly every answering sentence or in none. */
const NON_FOCUS = new Set(
  (
    "require required requirement requirements need needs must shall should may can apply applies applicable according under " +
    "regulation directive act rule rules law article articles section sections paragraph provision provisions annex recital " +
    "what which who whom when where why how whether please describe explain specify list mean meaning say says state states " +
    "specific particular relevant certain following given case cases example type types kind way ways thing things do does " +
    "secondo previsto prevista previsti previste norma norme articolo articoli comma cosa quale quali quando come dove chi " +
    "deve devono può possono essere fare sapere indicare dire prevede prevedono riguardo ai sensi entro"
  ).split(" "),
);
/** Words so common in regulatory text that they say little about which sentence answers. */
const GENERIC = new Set(
  (
    "data information entity entities person persons organization organisation party parties authority authorities " +
    "member state measure measures system systems process time use document documents case provider providers " +
    "dati informazioni soggetto soggetti ente enti documento documenti misura misure sistema procedura"
  ).split(" "),
);

interface Lemma {
  text: string;
  pos: string;
}

function englishLemmas(question: string, resources: LanguageResources): Lemma[] {
  const nlp = resources.englishNlp();
  const doc = nlp.wink.readDoc(question);
  const its = nlp.wink.its;
  // wink's typings declare `its.lemma` with a different signature from the other token
  // properties; at run time `out` takes it like `its.value`.
  const lemmas = doc.tokens().out(its.lemma as unknown as typeof its.value);
  const tags = doc.tokens().out(its.pos);
  return lemmas.map((l, i) => ({ text: String(l).toLowerCase(), pos: String(tags[i] ?? "X") }));
}

function focusTerms(question: string, language: "en" | "it", skip: ReadonlySet<string>, resources: LanguageResources): string[] {
  const words: Lemma[] =
    language === "en" ? englishLemmas(question, resources) : tokenize(question).map((w) => ({ text: w, pos: /^\d/.test(w) ? "NUM" : "NOUN" }));
  const tiers = new Map<string, number>();
  for (const { text, pos } of words) {
    if (!/[\p{L}\p{N}]/u.test(text) || text.length < 2 || isFunctionWord(text) || NON_FOCUS.has(text) || skip.has(text)) continue;
    if (language === "en" && !["NOUN", "PROPN", "ADJ", "VERB", "NUM", "X"].includes(pos)) continue;
    // Most specific first: numbers and names, then nouns and adjectives, then verbs, then the
    // vocabulary every rule shares; question order within a tier.
    const tier = GENERIC.has(text) ? 3 : pos === "NUM" || pos === "PROPN" ? 0 : pos === "VERB" ? 2 : 1;
    if (!tiers.has(text) || (tiers.get(text) ?? 9) > tier) tiers.set(text, tier);
  }
  return [...tiers.entries()].sort((a, b) => a[1] - b[1]).map(([text]) => text);
}

// ---- the analysis ----

const YES_NO_TAIL = /\s*(?:,?\s*(?:under|according to|pursuant to|secondo|ai sensi d\S*)\s+[^,?]*)?\?*\s*$/i;

/**
 * Reads the question once; `library` names the imported documents (titles and effective aliases);
 * `resources` are the engine's pipelines and lookups (language-resources.ts).
 */
export function analyzeQuestion(question: string, library: LibraryNames, resources: LanguageResources): QuestionAnalysis {
  const text = question.replace(/\s+/g, " ").trim();
  const language = detectLanguage(text);
  const mentions = findInstrumentMentions(text);
  const scope = documentScope(text, library.documents, resources, mentions);
  const provisions = findProvisions(text, language);
  const parties = questionParties(text);
  const reading = classifyAnswerType(text);
  // Words that only name the instrument or the provision route retrieval; they are not in the answer.
  const skip = new Set<string>([...mentions, ...provisions.map((p) => ({ text: p.raw }))].flatMap((m) => tokenize(m.text)));
  const analysis: QuestionAnalysis = {
    question: text,
    language,
    answerType: reading.answerType,
    alsoAsks: reading.alsoAsks,
    scope: { documentIds: scope.documentIds, parts: scope.parts, instruments: scope.instruments, provisions: provisions.map((p) => p.raw), parties },
    provisionLabels: [...new Set(provisions.flatMap((p) => p.labels))],
    missingInstruments: scope.missingInstruments,
    otherNames: scope.otherNames,
    focusTerms: focusTerms(text, language, skip, resources),
  };
  if (reading.modality !== undefined) analysis.modality = reading.modality;
  if (reading.answerType === "yes-no") analysis.condition = text.replace(YES_NO_TAIL, "").trim();
  return analysis;
}

/** The part of the analysis the extractive answer reads (answer-types.ts AnswerHints). */
export function answerHints(analysis: QuestionAnalysis): Required<Omit<AnswerHints, "subject" | "modality">> & Pick<AnswerHints, "modality"> {
  return {
    answerType: analysis.answerType,
    ...(analysis.modality === undefined ? {} : { modality: analysis.modality }),
    provisions: analysis.scope.provisions,
    parties: analysis.scope.parties,
    language: analysis.language,
    alsoAsks: analysis.alsoAsks,
  };
}
