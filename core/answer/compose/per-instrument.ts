import { escapeRegExp } from "../../text/index.ts";
import type { AskResult, AskSentence } from "../../model/answer-types.ts";
import type { Subgraph } from "../../model/subgraph-types.ts";
import type { RankedSection } from "../../model/retrieval-types.ts";
import { formatAnswer } from "./verify-citations.ts";

// A question about two instruments ("Compare how quickly individuals must be notified of a breach
// under GDPR and under HIPAA") is answered per instrument: each is retrieved and answered in its own
// documents, so each part has its own lead, and the parts are joined in the order the question
// names them. Answered together, the instrument with more matching sentences took every place.

/** One named instrument and the imported documents that are it. */
export interface InstrumentScope {
  name: string;
  documentIds: string[];
}

/** Words asking to set instruments side by side ("compare", "each", "differ", "rispetto a"). */
const SIDE_BY_SIDE =
  /(?<![\p{L}])(?:compar\w*|versus|vs\.?|each|both|differ\w*|contrast\w*|confront\w*|rispetto|entramb\w*|ciascun\w*|differenz\w*)(?![\p{L}])/iu;

/**
 * Whether a question naming several instruments asks about each of them, rather than about one in
 * the words of another ("According to NIST SP 800-66, how often must the HIPAA evaluation be
 * performed?" is one guide's answer): it sets them side by side ("compare", "each", "differ"), or
 * joins two of the names as alternatives ("under GDPR and under HIPAA", "DORA or NIS2").
 */
export function asksPerInstrument(question: string, instruments: readonly string[]): boolean {
  if (instruments.length < 2) return false;
  if (SIDE_BY_SIDE.test(question)) return true;
  const names = instruments.map(escapeRegExp).join("|");
  const joined = new RegExp(
    `(?:${names})\\)?\\s*(?:,|and|or|e|o|ed|oppure|/)\\s+(?:(?:the|under|in|for|il|la|lo|i|gli|le|nel|nella|per|secondo)\\s+){0,2}\\(?(?:${names})`,
    "iu",
  );
  return joined.test(question);
}

/**
 * The instruments a question names that resolve to distinct sets of imported documents, in the
 * order named; fewer than two means the question is answered as one. `documentsOf` reads a name
 * alone (the question reader's scope for that name).
 */
export function instrumentScopes(instruments: readonly string[], documentsOf: (name: string) => readonly string[]): InstrumentScope[] {
  const out: InstrumentScope[] = [];
  for (const name of instruments) {
    const documentIds = [...new Set(documentsOf(name))].sort();
    if (documentIds.length === 0) continue;
    const key = documentIds.join(",");
    if (out.some((s) => s.documentIds.join(",") === key)) continue;
    out.push({ name, documentIds });
  }
  // An instrument whose documents include another's ("HIPAA" naming both the rule and a guide to it,
  // beside "NIST SP 800-66", the guide) keeps the documents that are its own.
  const own = out
    .map((s) => {
      const inner = out.filter((o) => o !== s && o.documentIds.length < s.documentIds.length && o.documentIds.every((d) => s.documentIds.includes(d)));
      return { name: s.name, documentIds: s.documentIds.filter((d) => !inner.some((o) => o.documentIds.includes(d))) };
    })
    .filter((s) => s.documentIds.length > 0);
  return own.length >= 2 ? own : [];
}

/** The parts' rankings taken in turn (first of each, then second of each …), each section once. */
export function interleave(parts: ReadonlyArray<readonly RankedSection[]>, k: number): RankedSection[] {
  const out: RankedSection[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < k && parts.some((p) => i < p.length); i++) {
    for (const part of parts) {
      const r = part[i];
      if (r === undefined || seen.has(r.section.id) || out.length >= k) continue;
      seen.add(r.section.id);
      out.push(r);
    }
  }
  return out;
}

function rekeyed(sentence: AskSentence, map: ReadonlyMap<string, string>): AskSentence {
  const key = (k: string): string => map.get(k) ?? k;
  const out: AskSentence = { ...sentence, citationKeys: sentence.citationKeys.map(key) };
  if (sentence.evidence !== undefined) out.evidence = sentence.evidence.map((e) => ({ ...e, key: key(e.key) }));
  return out;
}

function unionSubgraph(graphs: readonly Subgraph[]): Subgraph {
  const nodes = new Map<string, Subgraph["nodes"][number]>();
  const edges = new Map<string, Subgraph["edges"][number]>();
  for (const g of graphs) {
    for (const n of g.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);
    for (const e of g.edges) if (!edges.has(e.id)) edges.set(e.id, e);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/**
 * One answer from the parts, in order: each answered part's sentences with its citations re-keyed
 * after the previous part's (S1, S2 … then S3 …). A part the library does not answer is said so in
 * the analysis line; when no part is answered, the first part's refusal is the answer.
 */
export function joinAnswers(parts: ReadonlyArray<{ scope: InstrumentScope; result: AskResult }>): AskResult {
  const answered = parts.filter((p) => p.result.citations.length > 0);
  const first = answered[0] ?? parts[0];
  if (first === undefined) throw new Error("joinAnswers needs at least one part");
  const unanswered = parts
    .filter((p) => p.result.citations.length === 0)
    .map((p) => `${p.scope.name}: ${p.result.refusalReason ?? p.result.analysis ?? ""}`.trim());
  if (answered.length <= 1) {
    if (answered.length === 0 || unanswered.length === 0) return first.result;
    return { ...first.result, analysis: [first.result.analysis, ...unanswered].filter((x) => x !== undefined && x !== "").join(" ") };
  }
  // What each part shows first comes first, part after part, so each part's lead is read before
  // "show more"; what each keeps under "show more" follows, in the same order.
  const shown: AskSentence[] = [];
  const more: AskSentence[] = [];
  const citations: AskResult["citations"] = [];
  for (const { result } of answered) {
    const map = new Map<string, string>();
    for (const c of result.citations) {
      const key = `S${citations.length + 1}`;
      map.set(c.key, key);
      citations.push({ ...c, key });
    }
    for (const s of result.sentences) (s.more === true ? more : shown).push(rekeyed(s, map));
  }
  const sentences = [...shown, ...more];
  const triplets = new Map(answered.flatMap((p) => p.result.triplets.map((t) => [t.id, t] as const)));
  const analysis = [...answered.map((p) => p.result.analysis), ...unanswered].filter((x): x is string => x !== undefined && x !== "");
  const timings = answered.map((p) => p.result.timings);
  const joined: AskResult = {
    answer: formatAnswer(sentences),
    mode: answered.some((p) => p.result.mode === "llm") ? "llm" : "extractive",
    citations,
    sentences,
    triplets: [...triplets.values()],
    subgraph: unionSubgraph(answered.map((p) => p.result.subgraph)),
    timings: {
      retrieveMs: Math.max(...timings.map((t) => t.retrieveMs)),
      promptTokens: timings.reduce((s, t) => s + t.promptTokens, 0),
      firstTokenMs: timings.find((t) => t.firstTokenMs !== null)?.firstTokenMs ?? null,
      totalMs: timings.reduce((s, t) => s + t.totalMs, 0),
    },
  };
  if (analysis.length > 0) joined.analysis = [...new Set(analysis)].join(" ");
  const notice = answered.find((p) => p.result.notice !== undefined)?.result.notice;
  if (notice !== undefined) joined.notice = notice;
  const decided = first.result.inLibrary;
  if (decided !== undefined) joined.inLibrary = decided;
  return joined;
}
