import type { AnswerRule } from "../../model/answer-rules.ts";
import { REFUSAL } from "../../model/answer-types.ts";
import type { LanguageResources } from "../language-resources.ts";
import { splitSentences } from "./sentence-units.ts";

// What a model writes is untrusted too: small local models skip labels, put everything on one
// line, wrap it in markdown, think aloud in <think> tags, write "[S1, S2]" or "[s1]" or put the key
// after the full stop. The parser accepts all of that and always returns a well-formed result;
// deciding whether what it found is usable is the verifier's job.

export interface ParsedOutput {
  /** The answer section (everything when the model wrote no labels). */
  answer: string;
  analysis: string | null;
  /** Keys listed under "Sources:". */
  sources: string[];
}

export interface DraftSentence {
  text: string;
  /** Keys as cited ("S1"), deduplicated, in order; not yet checked against the context. */
  keys: string[];
  /** True for the sentence that says the documents do not answer. */
  refusal: boolean;
  /** Extractive drafts: the sentence's part in the answer (see AskSentence.role). */
  role?: "lead" | "point" | "support";
  /** Extractive drafts: the named rule that placed it (see AskSentence.rule). */
  rule?: AnswerRule;
  /** Extractive drafts: shown under "show more" (see AskSentence.more). */
  more?: boolean;
}

const LABEL = /(?:^|[\s*#>_|])(answer|risposta|analysis|analisi|sources?|fonti|citations?)\s*\**\s*[:：]/gi;
const KEY_GROUP = /[[【［]\s*((?:s|source)\s*\d+(?:\s*(?:[,;&]|and)\s*(?:s|source)?\s*\d+)*)\s*[\]】］]/gi;
const MAX_ANALYSIS_CHARS = 600;

type Part = "answer" | "analysis" | "sources";

function partOf(label: string): Part {
  const l = label.toLowerCase();
  if (l.startsWith("anal")) return "analysis";
  if (l.startsWith("answer") || l.startsWith("risposta")) return "answer";
  return "sources";
}

function stripThinking(text: string): string {
  // Reasoning models (Qwen3, DeepSeek-R1 distills) think first; an unclosed block is all thinking.
  const closed = text.replace(/<think>[\s\S]*?<\/think>/gi, " ");
  const open = closed.search(/<think>/i);
  return open >= 0 ? closed.slice(0, open) : closed;
}

function stripMarkdown(text: string): string {
  return text
    .replace(/```[a-z]*\n?/gi, "")
    .replace(/\*\*|__/g, "")
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s*(?:[-*•]|\d{1,2}[.)])\s+/gm, "");
}

/** Keys in a piece of text, "S1"-style, in order of appearance, without repeats. */
export function keysIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(KEY_GROUP)) {
    for (const n of (m[1] ?? "").matchAll(/\d+/g)) {
      const key = `S${Number(n[0])}`;
      if (!out.includes(key)) out.push(key);
    }
  }
  return out;
}

export function removeKeys(text: string): string {
  return text
    .replace(KEY_GROUP, " ")
    .replace(/\s+([.,;:!?)])/g, "$1")
    .replace(/\(\s*\)/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function parseModelOutput(raw: string): ParsedOutput {
  const text = stripMarkdown(stripThinking(raw));
  const marks: Array<{ part: Part; at: number; bodyAt: number }> = [];
  for (const m of text.matchAll(LABEL)) {
    const at = (m.index ?? 0) + m[0].search(/\p{L}/u);
    marks.push({ part: partOf(m[1] ?? ""), at, bodyAt: (m.index ?? 0) + m[0].length });
  }
  const first = new Map<Part, string>();
  marks.forEach((mark, i) => {
    if (first.has(mark.part)) return;
    const end = marks[i + 1]?.at ?? text.length;
    first.set(mark.part, text.slice(mark.bodyAt, end).trim());
  });
  let answer = first.get("answer");
  if (answer === undefined) {
    // No "Answer:" label: whatever precedes the first other label is the answer.
    answer = text.slice(0, marks[0]?.at ?? text.length).trim();
  }
  const analysisRaw = first.get("analysis");
  const analysis = analysisRaw === undefined ? null : analysisRaw.replace(/\s+/g, " ").trim().slice(0, MAX_ANALYSIS_CHARS);
  return { answer, analysis: analysis === "" ? null : analysis, sources: keysIn(first.get("sources") ?? "") };
}

const normalizedRefusal = normalize(REFUSAL);

function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function isRefusal(sentence: string): boolean {
  const n = normalize(sentence);
  return n === normalizedRefusal || n.includes("documents provided do not answer");
}

/** The answer as sentences with their keys; a key written after the full stop belongs before it. */
export function draftSentences(answer: string, resources: LanguageResources): DraftSentence[] {
  const out: DraftSentence[] = [];
  for (const line of answer.split(/\n+/)) {
    for (const piece of splitSentences(line, resources)) {
      const keys = keysIn(piece);
      const leading = /^(?:\s*[[【［][^\]】］]*[\]】］])+/.exec(piece);
      const leadKeys = leading === null ? [] : keysIn(leading[0]);
      const previous = out[out.length - 1];
      if (previous !== undefined && leadKeys.length > 0 && !previous.refusal) {
        for (const k of leadKeys) if (!previous.keys.includes(k)) previous.keys.push(k);
      }
      const rest = leading === null ? piece : piece.slice(leading[0].length);
      const text = removeKeys(rest);
      if (!/\p{L}/u.test(text)) {
        // Only keys (or punctuation): they cite the sentence before.
        if (previous !== undefined && !previous.refusal) for (const k of keys) if (!previous.keys.includes(k)) previous.keys.push(k);
        continue;
      }
      const ownKeys = previous === undefined ? keys : keysIn(rest);
      out.push({ text, keys: ownKeys, refusal: isRefusal(text) });
    }
  }
  return out;
}
