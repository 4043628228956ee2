// The auditor-phrased development set (../shared/corpus/qa/auditor/auditor_dev.jsonl, described in
// its README): 80 questions over the ten regulatory PDFs, each with gold provisions given as PDF
// pages and a phrase copied from the page. Asked through engine.ask without a model, as the
// labelled runner asks; figures, not assertions.
//
// Questions whose id number is divisible by 4 are the unread part: they are only ever reported as
// totals, so that tuning on the rest cannot quietly fit them. Nothing here prints, logs or throws
// with one of them (or its text) individually; the per-question callback sees the read part only.
//
// Our own plain-language set (test/corpus/plain-questions.jsonl, ids "ap-N") has the same format
// and is asked the same way. Written for this library by other hands than the rules', it keeps an
// unread part of its own: ids divisible by 3, reported as totals only and never fitted on.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { isLeadRule } from "../../core/model/answer-rules.ts";
import type { AskResult } from "../../core/model/answer-types.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { isRefusal, leadText } from "./labelled-answers.ts";
import { percentile } from "./metrics.ts";
import { decisionPoint, type DecisionPoint } from "./refusal-curve.ts";
import { IN_LIBRARY_MODEL, REFUSE_BELOW } from "../../core/answer/compose/in-library.ts";

/** The goals the issue sets for this set, judged on the unread part. */
export const AUDITOR_GOALS = {
  shownPhraseShare: 0.75,
  pageCitedShare: 0.9,
  inDomainRefusedShare: 0.02,
  outOfDomainRefusedShare: 0.9,
  meanShownWords: 90,
  hitAt10: 0.95,
} as const;

const goldSchema = z.object({
  label: z.string().min(1),
  /** 1-based PDF page indexes of the provision. */
  pages: z.array(z.int().positive()).min(1),
  /** 5–12 words copied from pdftotext of one of those pages. */
  phrase: z.string().min(1),
});

const itemSchema = z
  .object({
    id: z.string().regex(/^a[dp]-\d+$/),
    /** PDF name in ../shared/corpus/regulatory; null for out-of-domain. */
    file: z.string().min(1).nullable(),
    question: z.string().min(1),
    kind: z.string().min(1),
    gold: z.array(goldSchema),
    answer: z.string(),
  })
  .refine((q) => (q.file === null) === (q.gold.length === 0), { message: "file null exactly when gold is empty" });

export type AuditorQuestion = z.infer<typeof itemSchema>;

/** Ids of our own plain-language set, whose unread part is every third. */
const OWN_SET_ID = /^ap-(\d+)$/;

/**
 * An auditor dev id whose number is divisible by 4, or one of ours divisible by 3; an id without a
 * number is withheld as well (safer).
 */
export function isUnread(id: string): boolean {
  const own = OWN_SET_ID.exec(id);
  if (own?.[1] !== undefined) return Number(own[1]) % 3 === 0;
  const m = /(\d+)$/.exec(id);
  return m?.[1] === undefined || Number(m[1]) % 4 === 0;
}

/** Parses the JSONL; a malformed unread line is reported without its line number, id or content. */
export async function loadAuditorDev(file: string): Promise<AuditorQuestion[]> {
  const lines = (await readFile(file, "utf8")).split(/\r?\n/);
  const questions: AuditorQuestion[] = [];
  const problems: string[] = [];
  let unreadProblems = 0;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      raw = undefined;
    }
    const id = z.object({ id: z.string() }).safeParse(raw);
    const unread = !id.success || isUnread(id.data.id);
    const parsed = itemSchema.safeParse(raw);
    if (parsed.success) {
      questions.push(parsed.data);
    } else if (unread) {
      unreadProblems++;
    } else {
      // Paths and zod's messages only: they do not quote the values.
      problems.push(`line ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join(".") || "(item)"} ${x.message}`).join("; ")}`);
    }
  }
  if (unreadProblems > 0) problems.push(`${unreadProblems} malformed line(s) of the unread part (not shown)`);
  if (problems.length > 0) throw new Error(`${file}: ${problems.join(" | ")}`);
  const seen = new Set<string>();
  let duplicates = 0;
  for (const q of questions) {
    if (seen.has(q.id)) duplicates++;
    seen.add(q.id);
  }
  if (duplicates > 0) throw new Error(`${file}: ${duplicates} duplicate id(s)`);
  return questions;
}

/**
 * Text as compared with a gold phrase: lower case, quotes and dashes unified, words split at a
 * line-break hyphen joined again, other punctuation a space. Hyphens between letters are dropped
 * rather than spaced, on both sides, so "third-party", "third- party" and pdftotext's "third-\nparty"
 * all read the same whichever way the engine or pdftotext broke the line.
 */
export function normaliseWords(text: string): string {
  return (
    text
      .normalize("NFKC")
      .replace(/\u00ad/g, "")
      .replace(/[‘’‚‛′`]/g, "'")
      .replace(/[“”„‟″«»]/g, '"')
      .replace(/[‐‑]/g, "-")
      // Dashes (5–12, "hours—at") separate words; only a hyphen between letters joins them.
      .replace(/[‒–—―−]/g, " ")
      .replace(/(\p{L})-\s*(?=\p{L})/gu, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim()
  );
}

/** The phrase's word sequence occurs in the text, on word boundaries. */
export function phraseIn(normalisedText: string, phrase: string): boolean {
  const needle = normaliseWords(phrase);
  return needle !== "" && ` ${normalisedText} `.includes(` ${needle} `);
}

/** A phrase's words of at least 3 letters, normalised: what the softer checks look for. */
export function phraseWords(phrase: string): string[] {
  return normaliseWords(phrase)
    .split(" ")
    .filter((w) => (w.match(/\p{L}/gu) ?? []).length >= 3);
}

/** The softer check: every word of at least 3 letters of the phrase is a word of the text, in any order. */
export function phraseWordsIn(textWords: ReadonlySet<string>, phrase: string): boolean {
  return phraseWords(phrase).every((w) => textWords.has(w));
}

const countWords = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

interface TextCheck {
  /** Every gold phrase as a word sequence. */
  phrase: boolean;
  /** Every gold phrase's words of 3+ letters. */
  words: boolean;
  /** Gold phrases not found as a sequence (read part only is ever printed). */
  missing: string[];
}

function checkText(text: string, gold: AuditorQuestion["gold"]): TextCheck {
  const norm = normaliseWords(text);
  const words = new Set(norm.split(" "));
  const missing = gold.filter((g) => !phraseIn(norm, g.phrase)).map((g) => g.phrase);
  return { phrase: gold.length > 0 && missing.length === 0, words: gold.length > 0 && gold.every((g) => phraseWordsIn(words, g.phrase)), missing };
}

export interface AuditorOutcome {
  id: string;
  file: string | null;
  kind: string;
  unread: boolean;
  inDomain: boolean;
  refused: boolean;
  shown: TextCheck;
  anywhere: TextCheck;
  /** A citation into the gold file at a page of any gold entry / of every gold entry. */
  pageAny: boolean;
  pageAll: boolean;
  /** In domain, answered, and the lead sentence cites only documents other than the gold file. */
  otherRegulation: boolean;
  /** Words shown before "show more" (0 when refused). */
  shownWords: number;
  ms: number;
  /** engine.search top 10 holds a section of the gold file spanning a gold page. */
  hitAt10: boolean;
  lead: string;
  /** The named rule that chose the lead (answer-rules.ts), when the answer says. */
  leadRule: string | null;
  citations: string[];
  /** Files the lead sentence cites. */
  leadFiles: string[];
  /** The rule that decided whether the library answers it (in-library.ts), when the answer says. */
  inLibraryRule: string | null;
  /** The refusal decision's view of it, for the curve (refusal-curve.ts). */
  decision: DecisionPoint;
}

const pagesOverlap = (start: number, end: number, pages: readonly number[]): boolean => pages.some((p) => p >= start && p <= end);

/** The first sentence that cites something: a bare "Yes." before it carries no citation. */
function citedLead(result: AskResult): AskResult["sentences"][number] | undefined {
  return result.sentences.find((s) => s.citationKeys.length > 0);
}

async function askOne(engine: Engine, q: AuditorQuestion, fileOf: (documentId: string, fallback: string) => string): Promise<AuditorOutcome> {
  const started = performance.now();
  const result = await engine.ask(q.question);
  const ms = performance.now() - started;
  const refused = isRefusal(result);
  const inDomain = q.file !== null;
  const shownText = result.sentences
    .filter((s) => s.more !== true)
    .map((s) => s.text)
    .join(" ");
  const allText = result.sentences.map((s) => s.text).join(" ");
  const none: TextCheck = { phrase: false, words: false, missing: q.gold.map((g) => g.phrase) };
  const inGold = (documentId: string, fallback: string): boolean => q.file !== null && fileOf(documentId, fallback) === q.file;
  const goldHit = (g: AuditorQuestion["gold"][number]): boolean =>
    result.citations.some((c) => inGold(c.documentId, c.file) && pagesOverlap(c.pageStart, c.pageEnd, g.pages));
  const lead = citedLead(result);
  const leadCitations = result.citations.filter((c) => lead?.citationKeys.includes(c.key) === true);
  const leadFiles = [...new Set(leadCitations.map((c) => fileOf(c.documentId, c.file)))];
  const search = inDomain ? await engine.search(q.question, { k: 10 }) : null;
  const goldPages = q.gold.flatMap((g) => g.pages);
  return {
    id: q.id,
    file: q.file,
    kind: q.kind,
    unread: isUnread(q.id),
    inDomain,
    refused,
    shown: refused || !inDomain ? none : checkText(shownText, q.gold),
    anywhere: refused || !inDomain ? none : checkText(allText, q.gold),
    pageAny: inDomain && !refused && q.gold.some(goldHit),
    pageAll: inDomain && !refused && q.gold.every(goldHit),
    otherRegulation: inDomain && !refused && leadCitations.length > 0 && leadCitations.every((c) => !inGold(c.documentId, c.file)),
    shownWords: refused ? 0 : countWords(shownText),
    ms,
    hitAt10: search?.results.slice(0, 10).some((r) => inGold(r.documentId, r.file) && pagesOverlap(r.pageStart, r.pageEnd, goldPages)) ?? false,
    lead: leadText(result),
    leadRule: result.sentences.find((s) => isLeadRule(s.rule))?.rule ?? null,
    citations: result.citations.map((c) => c.label),
    leadFiles,
    inLibraryRule: result.inLibrary?.rule ?? null,
    decision: decisionPoint(isUnread(q.id) ? "auditor unread" : "auditor read", inDomain, result, IN_LIBRARY_MODEL, REFUSE_BELOW),
  };
}

/**
 * Asks every question (and searches the in-domain ones) in order. `onRead` is told each outcome of
 * the read part only. An error on an unread question is replaced by one that does not name it.
 */
export async function askAuditor(engine: Engine, questions: readonly AuditorQuestion[], onRead?: (o: AuditorOutcome) => void): Promise<AuditorOutcome[]> {
  const documents = await engine.listDocuments();
  const byId = new Map(documents.map((d) => [d.id, d.fileName]));
  const names = new Set(documents.map((d) => d.fileName));
  const absent = [...new Set(questions.flatMap((q) => (q.file === null || names.has(q.file) ? [] : [q.file])))];
  if (absent.length > 0) throw new Error(`auditor dev set names PDFs the library lacks: ${absent.sort().join(", ")}`);
  // Citations carry the file name too; the library's record is the authority when it knows the id.
  const fileOf = (documentId: string, fallback: string): string => byId.get(documentId) ?? fallback;
  const outcomes: AuditorOutcome[] = [];
  for (const q of questions) {
    let outcome: AuditorOutcome;
    try {
      outcome = await askOne(engine, q, fileOf);
    } catch (err) {
      if (!isUnread(q.id)) throw err;
      throw new Error(`asking a question of the unread part failed (${err instanceof Error ? err.name : typeof err}; details withheld)`);
    }
    outcomes.push(outcome);
    if (!outcome.unread) onRead?.(outcome);
  }
  return outcomes;
}

export interface Share {
  n: number;
  of: number;
  share: number;
}
const share = (n: number, of: number): Share => ({ n, of, share: of === 0 ? 0 : n / of });

export interface AuditorGroup {
  questions: number;
  inDomain: number;
  outOfDomain: number;
  /** Over in-domain questions. */
  shownPhrase: Share;
  shownAllWords: Share;
  anywherePhrase: Share;
  anywhereAllWords: Share;
  pageCitedAny: Share;
  pageCitedAll: Share;
  inDomainRefused: Share;
  /** Over out-of-domain questions. */
  outOfDomainRefused: Share;
  /** Over in-domain questions. */
  otherRegulation: Share;
  /** Over answered questions. */
  meanShownWords: number;
  askMs: { p50: number; p95: number };
  /** Over in-domain questions. */
  hitAt10: Share;
  /** Answered in-domain questions by the named rule that chose their lead (answer-rules.ts). */
  leadRules: Record<string, number>;
  /** In-domain refusals by the in-library rule that refused them. */
  inDomainRefusedBy: Record<string, number>;
  /** Out-of-domain questions answered, by the in-library rule that let them through. */
  outOfDomainAnsweredBy: Record<string, number>;
}

export interface AuditorFigures {
  file: string;
  /** Questions in the file (those asked may be fewer under --limit). */
  total: number;
  all: AuditorGroup;
  read: AuditorGroup;
  unread: AuditorGroup;
  /** All questions, by gold file ("out-of-domain" for the rest). */
  byDocument: Record<string, AuditorGroup>;
  goals: typeof AUDITOR_GOALS;
}

export const OUT_OF_DOMAIN = "out-of-domain";

function group(outcomes: readonly AuditorOutcome[]): AuditorGroup {
  const inDomain = outcomes.filter((o) => o.inDomain);
  const ood = outcomes.filter((o) => !o.inDomain);
  const answered = outcomes.filter((o) => !o.refused);
  const inShare = (pred: (o: AuditorOutcome) => boolean): Share => share(inDomain.filter(pred).length, inDomain.length);
  const ms = outcomes.map((o) => o.ms);
  return {
    questions: outcomes.length,
    inDomain: inDomain.length,
    outOfDomain: ood.length,
    shownPhrase: inShare((o) => o.shown.phrase),
    shownAllWords: inShare((o) => o.shown.words),
    anywherePhrase: inShare((o) => o.anywhere.phrase),
    anywhereAllWords: inShare((o) => o.anywhere.words),
    pageCitedAny: inShare((o) => o.pageAny),
    pageCitedAll: inShare((o) => o.pageAll),
    inDomainRefused: inShare((o) => o.refused),
    outOfDomainRefused: share(ood.filter((o) => o.refused).length, ood.length),
    otherRegulation: inShare((o) => o.otherRegulation),
    meanShownWords: answered.length === 0 ? 0 : answered.reduce((s, o) => s + o.shownWords, 0) / answered.length,
    askMs: { p50: percentile(ms, 50), p95: percentile(ms, 95) },
    hitAt10: inShare((o) => o.hitAt10),
    leadRules: countBy(inDomain.filter((o) => !o.refused).map((o) => o.leadRule ?? "none")),
    inDomainRefusedBy: countBy(inDomain.filter((o) => o.refused).map((o) => o.inLibraryRule ?? "none")),
    outOfDomainAnsweredBy: countBy(ood.filter((o) => !o.refused).map((o) => o.inLibraryRule ?? "none")),
  };
}

function countBy(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

export function auditorFigures(file: string, total: number, outcomes: readonly AuditorOutcome[]): AuditorFigures {
  const byDocument: Record<string, AuditorGroup> = {};
  const docs = [...new Set(outcomes.flatMap((o) => (o.file === null ? [] : [o.file])))].sort();
  for (const d of docs) byDocument[d] = group(outcomes.filter((o) => o.file === d));
  if (outcomes.some((o) => o.file === null)) byDocument[OUT_OF_DOMAIN] = group(outcomes.filter((o) => o.file === null));
  return {
    file,
    total,
    all: group(outcomes),
    read: group(outcomes.filter((o) => !o.unread)),
    unread: group(outcomes.filter((o) => o.unread)),
    byDocument,
    goals: AUDITOR_GOALS,
  };
}

const pct = (s: Share): string => (s.of === 0 ? "—" : `${(100 * s.share).toFixed(1)}% (${s.n}/${s.of})`);
const frac = (s: Share): string => (s.of === 0 ? "—" : `${s.share.toFixed(3)} (${s.n}/${s.of})`);
const clip = (text: string, max: number): string => {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
};
const mark = (ok: boolean): string => (ok ? "✓" : "✗");

/**
 * One line for --verbose, for a read question only (an unread one gives null): S/A = all gold
 * phrases shown / anywhere, P = a gold page cited, H = hit@10, then the lead, citations and the
 * phrases missing from the shown text.
 */
export function auditorLine(o: AuditorOutcome): string | null {
  if (o.unread) return null;
  const head = `${o.id.padEnd(7)} ${o.kind.padEnd(15)}`;
  if (!o.inDomain) return `${head} ${o.refused ? "refused (ok)" : "ANSWERED"} ${o.ms.toFixed(0).padStart(5)} ms | cites: ${o.citations.join("; ") || "—"}`;
  const marks = o.refused
    ? "REFUSED    "
    : `S${mark(o.shown.phrase)}${o.shown.words ? "w" : " "} A${mark(o.anywhere.phrase)} P${mark(o.pageAny)}${o.otherRegulation ? " OTHER-REG" : ""}`;
  return (
    `${head} ${marks} H${mark(o.hitAt10)} ${o.ms.toFixed(0).padStart(5)} ms ${String(o.shownWords).padStart(3)} w | lead (${o.leadRule ?? "—"}): ${clip(o.lead, 140)} | ` +
    `cites: ${o.citations.join("; ") || "—"}` +
    (o.refused || o.shown.missing.length === 0 ? "" : ` | not shown: ${o.shown.missing.map((p) => `"${p}"`).join(", ")}`)
  );
}

/** The block: all / read / unread side by side, the goals beside the unread column, then all by document. */
export function printAuditor(f: AuditorFigures, log: (line: string) => void, title = "auditor dev"): void {
  const g = f.goals;
  const cols = [f.all, f.read, f.unread];
  const W = 18;
  const row = (name: string, cell: (x: AuditorGroup) => string, goal?: { text: string; met: (x: AuditorGroup) => boolean }): string => {
    const cells = cols.map((x) => cell(x).padEnd(W)).join(" ");
    const tail = goal === undefined ? "" : `${goal.text.padEnd(8)} ${f.unread.questions === 0 ? "" : mark(goal.met(f.unread))}`;
    return `  ${name.padEnd(44)} ${cells} ${tail}`.trimEnd();
  };
  log("");
  log(`${title} (${f.all.questions}/${f.total}; ${f.read.questions} read, ${f.unread.questions} unread, unread shown as totals only; ${f.file})`);
  log(`  shown = before "show more"; phrase = the gold phrase's words in order; all phrase words = its words of 3+ letters anywhere in the text`);
  log(`  ${"".padEnd(44)} ${["all", "read", "unread"].map((h) => h.padEnd(W)).join(" ")} goal (unread)`);
  log(row("in-domain / out-of-domain", (x) => `${x.inDomain} / ${x.outOfDomain}`));
  log(
    row("operative words shown (phrase)", (x) => pct(x.shownPhrase), {
      text: "≥ 75%",
      met: (x) => x.shownPhrase.share >= g.shownPhraseShare,
    }),
  );
  log(row("operative words shown (all phrase words)", (x) => pct(x.shownAllWords)));
  log(row("operative words anywhere (phrase)", (x) => pct(x.anywherePhrase)));
  log(row("operative words anywhere (all phrase words)", (x) => pct(x.anywhereAllWords)));
  log(row("answering page cited (any gold)", (x) => pct(x.pageCitedAny), { text: "≥ 90%", met: (x) => x.pageCitedAny.share >= g.pageCitedShare }));
  log(row("answering page cited (all gold)", (x) => pct(x.pageCitedAll)));
  log(row("in-domain refused", (x) => pct(x.inDomainRefused), { text: "≤ 2%", met: (x) => x.inDomainRefused.share <= g.inDomainRefusedShare }));
  log(row("out-of-domain refused", (x) => pct(x.outOfDomainRefused), { text: "≥ 90%", met: (x) => x.outOfDomainRefused.share >= g.outOfDomainRefusedShare }));
  log(row("answered from another regulation (lead)", (x) => pct(x.otherRegulation)));
  log(
    row('mean words shown before "show more"', (x) => x.meanShownWords.toFixed(1), {
      text: "≤ 90",
      met: (x) => x.meanShownWords <= g.meanShownWords,
    }),
  );
  log(row("ask latency p50 / p95", (x) => `${x.askMs.p50.toFixed(0)} / ${x.askMs.p95.toFixed(0)} ms`));
  log(row("retrieval hit@10", (x) => frac(x.hitAt10), { text: "≥ 0.95", met: (x) => x.hitAt10.share >= g.hitAt10 }));
  const rules = Object.entries(f.all.leadRules).sort((a, b) => b[1] - a[1]);
  for (const [rule] of rules) log(row(`  lead chosen by ${rule}`, (x) => String(x.leadRules[rule] ?? 0)));
  // Totals only, so the unread part says which rule refused it without showing a question.
  for (const rule of Object.keys(f.all.inDomainRefusedBy).sort()) log(row(`  in-domain refused by ${rule}`, (x) => String(x.inDomainRefusedBy[rule] ?? 0)));
  for (const rule of Object.keys(f.all.outOfDomainAnsweredBy).sort())
    log(row(`  out-of-domain answered by ${rule}`, (x) => String(x.outOfDomainAnsweredBy[rule] ?? 0)));
  log(
    `  ${"all, by document".padEnd(50)} ${"n".padStart(3)}  ${"shown".padStart(5)}  ${"words".padStart(5)}  ${"anywhere".padStart(8)}  ` +
      `${"page".padStart(4)}  refused  other-reg  hit@10`,
  );
  const p0 = (s: Share): string => (s.of === 0 ? "—" : `${(100 * s.share).toFixed(0)}%`);
  for (const [doc, x] of Object.entries(f.byDocument)) {
    const name = clip(doc, 48).padEnd(48);
    if (doc === OUT_OF_DOMAIN) {
      log(`    ${name} ${String(x.questions).padStart(3)}  refused ${x.outOfDomainRefused.n}/${x.outOfDomain}`);
      continue;
    }
    log(
      `    ${name} ${String(x.questions).padStart(3)}  ${p0(x.shownPhrase).padStart(5)}  ${p0(x.shownAllWords).padStart(5)}  ${p0(x.anywherePhrase).padStart(8)}  ` +
        `${p0(x.pageCitedAny).padStart(4)}  ${String(x.inDomainRefused.n).padStart(7)}  ${String(x.otherRegulation.n).padStart(9)}  ${p0(x.hitAt10).padStart(6)}`,
    );
  }
}
