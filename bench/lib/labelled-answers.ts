// Asks the labelled auditor questions (answer-questions.ts) through engine.ask without a model and
// judges each answer against its label: does it carry the operative words, does it cite the
// provision (and paragraph) that answers, does its lead sentence carry them. Figures, not
// assertions: the targets are printed beside them.
import { z } from "zod";
import type { AskResult } from "../../core/model/answer-types.ts";
import type { AskCitation } from "../../core/model/ask-citation.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { Section } from "../../core/model/section-types.ts";
import {
  ANSWER_TYPES,
  type AnswerQuestion,
  type AnswerType,
  bareParagraph,
  baseLabel,
  labelParagraphs,
  normalizeForMatch,
  operativeWordsIn,
  paragraphSpan,
} from "./answer-questions.ts";
import { percentile } from "./metrics.ts";
import { decisionPoint, type DecisionPoint } from "./refusal-curve.ts";
import { IN_LIBRARY_MODEL, REFUSE_BELOW } from "../../core/answer/compose/in-library.ts";

/** The optional `spans` of a citation (character ranges in the section text), checked before use. */
const citedRangesSchema = z.array(z.object({ start: z.number(), end: z.number() })).optional();

/** The targets answers are held to. */
export const LABELLED_TARGETS = {
  allWordsShare: 0.85,
  citesProvisionShare: 0.9,
  askP95Ms: 300,
  meanAnswerWords: 90,
} as const;

export interface LabelledOutcome {
  question: AnswerQuestion;
  refused: boolean;
  /** Operative words the answer lacks (all of them when refused). */
  missing: string[];
  allWords: boolean;
  /** All operative words before "show more". */
  shownAllWords: boolean;
  halfWords: boolean;
  /** A citation into the answering section, whatever the paragraph. */
  citesSection: boolean;
  /** A citation into the answering section and, when the label names one, its paragraph. */
  citesProvision: boolean;
  leadAllWords: boolean;
  leadHalfWords: boolean;
  /** The lead sentence (after a bare verdict; with its first point after a lead-in) is quoted from the answering paragraph: answer first. */
  leadCitesProvision: boolean;
  lead: string;
  citations: string[];
  /** Words shown before "show more". */
  words: number;
  /** Words of the whole answer, "show more" included. */
  allSentenceWords: number;
  ms: number;
  /** The refusal decision's view of it, for the curve (refusal-curve.ts). */
  decision: DecisionPoint;
}

/** Whatever the refusal says (its wording is changing), an answer citing nothing gives an auditor nothing to check. */
export function isRefusal(result: AskResult): boolean {
  return result.citations.length === 0;
}

const countWords = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The sentence that leads the answer. A bare "Yes." / "No." / "Sì." first sentence (answers lead
 * yes/no questions to lead with the verdict) is read together with the sentence after it, which
 * carries the condition.
 */
export function leadText(result: AskResult): string {
  const [first, second] = result.sentences;
  if (first === undefined) return "";
  if (second !== undefined && isBareVerdict(first.text)) return `${first.text} ${second.text}`;
  return first.text;
}

const isBareVerdict = (text: string): boolean => countWords(text) <= 3 && /^\s*(?:yes|no|s[iì]|non?)\b/i.test(text);

/** The sentence whose citation is the lead's: the first, or the one after a bare "Yes." / "No.". */
function leadSentence(result: AskResult): AskResult["sentences"][number] | undefined {
  const [first, second] = result.sentences;
  return first !== undefined && second !== undefined && isBareVerdict(first.text) && first.citationKeys.length === 0 ? second : first;
}

/**
 * The lead and, when it is a list's lead-in ("A covered entity … must, in accordance with
 * § 164.306:"), the point quoted right after it: together they say what was asked.
 */
function leadBlock(result: AskResult): Array<AskResult["sentences"][number]> {
  const lead = leadSentence(result);
  if (lead === undefined) return [];
  const next = result.sentences[result.sentences.indexOf(lead) + 1];
  return next !== undefined && next.role === "point" && /[:—–-]\s*$/.test(lead.text) ? [lead, next] : [lead];
}

/** Whether one answer sentence is quoted from within [start, end) of the section text. */
function sentenceWithin(sentence: string, spanText: string): boolean {
  const s = normalizeForMatch(sentence.replace(/\[unverified\]\s*$/i, ""))
    .replace(/(?:\.\.\.|…)\s*$/, "")
    .trim();
  if (s === "") return false;
  const span = normalizeForMatch(spanText);
  // Long sentences may be shortened or joined with their list points: the opening must still be there.
  return span.includes(s) || (s.length > 60 && span.includes(s.slice(0, 60)));
}

/**
 * The whole text of the provision a section belongs to, with where the section starts in it: a
 * long provision is stored in parts ("§ 164.524 (part 2)") and a paragraph may begin in one part
 * and be cited in the next.
 */
interface ProvisionText {
  text: string;
  offset: number;
}

async function citesAnswering(
  q: AnswerQuestion,
  c: AskCitation,
  result: AskResult,
  sectionOf: (id: string) => Promise<Section | null>,
  provisionOf: (section: Section) => Promise<ProvisionText>,
): Promise<{ section: boolean; provision: boolean }> {
  if (c.file !== q.document) return { section: false, provision: false };
  const section = await sectionOf(c.sectionId);
  if (section === null) return { section: false, provision: false };
  const wanted = q.provision.label;
  // Paragraph-level sections (if sectioning ever makes them) sit under the labelled one in the path.
  const isPart = baseLabel(section.label) === wanted;
  if (!isPart && !section.path.some((p) => baseLabel(p) === wanted)) return { section: false, provision: false };
  const paragraph = q.provision.paragraph;
  if (paragraph === undefined) return { section: true, provision: true };
  const whole = isPart ? await provisionOf(section) : { text: section.text, offset: 0 };
  const span = paragraphSpan(whole.text, paragraph);
  // Newer answers carry the cited character ranges of the section text (what the viewer
  // highlights): where the quoted text sits decides, whatever the label says.
  const ranges = citedRangesSchema.safeParse((c as { spans?: unknown }).spans);
  if (span !== null && ranges.success && ranges.data !== undefined && ranges.data.length > 0) {
    return { section: true, provision: ranges.data.some((r) => r.start + whole.offset >= span.start && r.start + whole.offset < span.end) };
  }
  const bare = bareParagraph(paragraph);
  if (labelParagraphs(c.label).includes(bare) || labelParagraphs(section.label).includes(bare)) return { section: true, provision: true };
  if (span === null) return { section: true, provision: false };
  // Otherwise the sentences quoted under this citation must come from the paragraph.
  const spanText = whole.text.slice(span.start, span.end);
  const quoted = result.sentences.filter((s) => s.citationKeys.includes(c.key));
  return { section: true, provision: quoted.some((s) => sentenceWithin(s.text, spanText)) };
}

export async function askLabelled(engine: Engine, questions: readonly AnswerQuestion[], onEach?: (o: LabelledOutcome) => void): Promise<LabelledOutcome[]> {
  const sections = new Map<string, Promise<Section | null>>();
  const sectionOf = (id: string): Promise<Section | null> => {
    let s = sections.get(id);
    if (s === undefined) {
      s = engine.getSection(id);
      sections.set(id, s);
    }
    return s;
  };
  const documentSections = new Map<string, Promise<Section[]>>();
  const provisionOf = async (section: Section): Promise<ProvisionText> => {
    let all = documentSections.get(section.documentId);
    if (all === undefined) {
      all = engine.getSections(section.documentId);
      documentSections.set(section.documentId, all);
    }
    const label = baseLabel(section.label);
    const parts = (await all).filter((s) => baseLabel(s.label) === label).sort((a, b) => a.ordinal - b.ordinal);
    let offset = 0;
    for (const part of parts) {
      if (part.id === section.id) break;
      offset += part.text.length + 1;
    }
    return { text: parts.map((p) => p.text).join("\n"), offset };
  };
  // The first ask loads the embedder and warms Kuzu's caches: not what an auditor waits for on
  // every question, so it stays out of the latency figures.
  await engine.ask("warm-up: what does this library cover?");
  const outcomes: LabelledOutcome[] = [];
  for (const q of questions) {
    const started = performance.now();
    const result = await engine.ask(q.question);
    const ms = performance.now() - started;
    const refused = isRefusal(result);
    const text = result.sentences.map((s) => s.text).join(" ");
    const lead = leadText(result);
    const inAnswer = refused ? { found: [], missing: [...q.operativeWords] } : operativeWordsIn(text, q.operativeWords);
    // What the answer shows before "show more" (AskSentence.more); the whole answer above.
    const shownText = result.sentences
      .filter((s) => s.more !== true)
      .map((s) => s.text)
      .join(" ");
    const inShown = refused ? { missing: [...q.operativeWords] } : operativeWordsIn(shownText, q.operativeWords);
    const inLead = refused ? { found: [] } : operativeWordsIn(lead, q.operativeWords);
    const half = Math.ceil(q.operativeWords.length / 2);
    let citesSection = false;
    let citesProvision = false;
    let leadCitesProvision = false;
    const block = leadBlock(result);
    const leadKeys = new Set(block.flatMap((x) => x.citationKeys));
    for (const c of result.citations) {
      const cited = await citesAnswering(q, c, result, sectionOf, provisionOf);
      citesSection ||= cited.section;
      citesProvision ||= cited.provision;
      // The lead's own citations, checked on the lead alone (not on other sentences under the same key).
      if (leadKeys.has(c.key) && !leadCitesProvision) {
        const alone = { ...result, sentences: block };
        leadCitesProvision = (await citesAnswering(q, c, alone, sectionOf, provisionOf)).provision;
      }
    }
    const outcome: LabelledOutcome = {
      question: q,
      refused,
      missing: inAnswer.missing,
      allWords: !refused && inAnswer.missing.length === 0,
      shownAllWords: !refused && inShown.missing.length === 0,
      halfWords: !refused && inAnswer.found.length >= half,
      citesSection,
      citesProvision,
      leadAllWords: !refused && inLead.found.length === q.operativeWords.length,
      leadHalfWords: !refused && inLead.found.length >= half,
      leadCitesProvision: !refused && leadCitesProvision,
      lead,
      citations: result.citations.map((c) => c.label),
      words: refused ? 0 : countWords(shownText),
      allSentenceWords: refused ? 0 : countWords(text),
      decision: decisionPoint("labelled", true, result, IN_LIBRARY_MODEL, REFUSE_BELOW),
      ms,
    };
    outcomes.push(outcome);
    onEach?.(outcome);
  }
  return outcomes;
}

interface Share {
  n: number;
  of: number;
  share: number;
}
const share = (n: number, of: number): Share => ({ n, of, share: of === 0 ? 0 : n / of });

export interface GroupFigures {
  questions: number;
  allWords: Share;
  citesProvision: Share;
  refused: Share;
}

export interface LabelledFigures {
  questions: number;
  documents: number;
  allWords: Share;
  shownAllWords: Share;
  halfWords: Share;
  citesProvision: Share;
  citesSection: Share;
  leadAllWords: Share;
  leadHalfWords: Share;
  leadCitesProvision: Share;
  refused: Share;
  /** Over answered questions: words shown before "show more", and of the whole answer. */
  meanAnswerWords: number;
  meanAllWords: number;
  askMs: { p50: number; p95: number };
  byAnswerType: Partial<Record<AnswerType, GroupFigures>>;
  byDocument: Record<string, GroupFigures>;
  targets: typeof LABELLED_TARGETS;
}

function group(outcomes: readonly LabelledOutcome[]): GroupFigures {
  const n = outcomes.length;
  return {
    questions: n,
    allWords: share(outcomes.filter((o) => o.allWords).length, n),
    citesProvision: share(outcomes.filter((o) => o.citesProvision).length, n),
    refused: share(outcomes.filter((o) => o.refused).length, n),
  };
}

export function labelledFigures(outcomes: readonly LabelledOutcome[]): LabelledFigures {
  const n = outcomes.length;
  const count = (pred: (o: LabelledOutcome) => boolean): Share => share(outcomes.filter(pred).length, n);
  const answered = outcomes.filter((o) => !o.refused);
  const byAnswerType: Partial<Record<AnswerType, GroupFigures>> = {};
  for (const t of ANSWER_TYPES) {
    const of = outcomes.filter((o) => o.question.answerType === t);
    if (of.length > 0) byAnswerType[t] = group(of);
  }
  const byDocument: Record<string, GroupFigures> = {};
  for (const d of [...new Set(outcomes.map((o) => o.question.document))].sort()) byDocument[d] = group(outcomes.filter((o) => o.question.document === d));
  const ms = outcomes.map((o) => o.ms);
  return {
    questions: n,
    documents: Object.keys(byDocument).length,
    allWords: count((o) => o.allWords),
    shownAllWords: count((o) => o.shownAllWords),
    halfWords: count((o) => o.halfWords),
    citesProvision: count((o) => o.citesProvision),
    citesSection: count((o) => o.citesSection),
    leadAllWords: count((o) => o.leadAllWords),
    leadHalfWords: count((o) => o.leadHalfWords),
    leadCitesProvision: count((o) => o.leadCitesProvision),
    refused: count((o) => o.refused),
    meanAnswerWords: answered.length === 0 ? 0 : answered.reduce((s, o) => s + o.words, 0) / answered.length,
    meanAllWords: answered.length === 0 ? 0 : answered.reduce((s, o) => s + o.allSentenceWords, 0) / answered.length,
    askMs: { p50: percentile(ms, 50), p95: percentile(ms, 95) },
    byAnswerType,
    byDocument,
    targets: LABELLED_TARGETS,
  };
}

/** Refusals first, then answers missing both the words and the provision, then by the share of words missing. */
export function worstFailures(outcomes: readonly LabelledOutcome[], n: number): LabelledOutcome[] {
  const severity = (o: LabelledOutcome): number =>
    (o.refused ? 4 : 0) + (o.allWords ? 0 : 1) + (o.citesProvision ? 0 : 1) + (o.leadAllWords ? 0 : 0.5) + o.missing.length / o.question.operativeWords.length;
  return outcomes
    .filter((o) => !o.allWords || !o.citesProvision)
    .map((o) => ({ o, s: severity(o) }))
    .sort((a, b) => b.s - a.s || a.o.question.id.localeCompare(b.o.question.id))
    .slice(0, n)
    .map(({ o }) => o);
}

const pct = (s: Share): string => `${(100 * s.share).toFixed(1)}% (${s.n}/${s.of})`;
const clip = (text: string, max: number): string => {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
};
const mark = (ok: boolean): string => (ok ? "✓" : "✗");
const expected = (q: AnswerQuestion): string =>
  `${q.provision.label}${q.provision.paragraph === undefined ? "" : ` ${q.provision.paragraph}`}: ${q.operativeWords.map((w) => `"${w}"`).join(", ")}`;

/** One line per question for --verbose: marks for words / provision / lead, the lead sentence and the citations. */
export function outcomeLine(o: LabelledOutcome): string {
  const q = o.question;
  const marks = o.refused ? "REFUSED     " : `W${mark(o.allWords)} C${mark(o.citesProvision)} L${mark(o.leadAllWords)} P${mark(o.leadCitesProvision)}`;
  return (
    `${q.id.padEnd(9)} ${marks} ${o.ms.toFixed(0).padStart(5)} ms | lead: ${clip(o.lead, 140)} | cites: ${o.citations.join("; ") || "—"}` +
    (o.missing.length > 0 ? ` | missing: ${o.missing.map((w) => `"${w}"`).join(", ")}` : "")
  );
}

export function printLabelled(f: LabelledFigures, outcomes: readonly LabelledOutcome[], log: (line: string) => void, worst = 10): void {
  const t = f.targets;
  log("");
  log(`extractive answers to the labelled auditor questions (${f.questions} over ${f.documents} PDFs, test/corpus/answer-questions.json)`);
  log(`  answers containing all operative words     ${pct(f.allWords)} (goal ≥ ${100 * t.allWordsShare}%); before "show more" ${pct(f.shownAllWords)}`);
  log(`  answers containing at least half of them   ${pct(f.halfWords)}`);
  log(
    `  answers citing the answering paragraph     ${pct(f.citesProvision)} (goal ≥ ${100 * t.citesProvisionShare}%); citing its section at all ${pct(f.citesSection)}`,
  );
  log(`  lead sentence with all operative words     ${pct(f.leadAllWords)}; with at least half ${pct(f.leadHalfWords)}`);
  log(`  lead sentence from the answering paragraph ${pct(f.leadCitesProvision)} (answer first)`);
  log(`  refused                                    ${pct(f.refused)}`);
  log(
    `  mean answer words before "show more"       ${f.meanAnswerWords.toFixed(1)} (answered questions; goal ≤ ${t.meanAnswerWords}); with "show more" ${f.meanAllWords.toFixed(1)}`,
  );
  log(`  ask latency                                p50 ${f.askMs.p50.toFixed(0)} ms, p95 ${f.askMs.p95.toFixed(0)} ms (goal p95 ≤ ${t.askP95Ms} ms)`);
  const groupLine = (name: string, g: GroupFigures): string =>
    `    ${name.padEnd(56)} ${String(g.questions).padStart(3)} q  words ${(100 * g.allWords.share).toFixed(0).padStart(3)}%  cited ${(100 * g.citesProvision.share).toFixed(0).padStart(3)}%  refused ${g.refused.n}`;
  log("  by answer type");
  for (const [type, g] of Object.entries(f.byAnswerType)) log(groupLine(type, g));
  log("  by document");
  for (const [doc, g] of Object.entries(f.byDocument)) log(groupLine(doc, g));
  const failures = worstFailures(outcomes, worst);
  if (failures.length > 0) {
    log(`  ${failures.length} worst failures`);
    for (const o of failures) {
      log(`    ${o.question.id}: ${o.question.question}`);
      log(`      led with: ${o.refused ? "(refused)" : clip(o.lead, 200)}`);
      log(`      cited:    ${o.citations.join("; ") || "—"}`);
      log(`      expected: ${expected(o.question)}${o.missing.length > 0 && !o.refused ? ` (missing ${o.missing.map((w) => `"${w}"`).join(", ")})` : ""}`);
    }
  }
}
