import type { AskSentence } from "../../model/answer-types.ts";
import type { AskCitation } from "../../model/ask-citation.ts";
import { blockCitation, type AnswerContext, type ContextBlock } from "./context-builder.ts";
import { contentStems } from "./lexical.ts";
import type { Candidate } from "./sentence-pool.ts";

// A key of the context stands for a whole block, which may quote several paragraphs over two
// pages. Each answer sentence is cited where it is printed: the block's sentences that carry its
// words ("DORA Art. 19(4), p. 42" rather than "Art. 19(1), (2), (4), pp. 41–42"), with their own
// page and character range, so a click shows exactly that sentence. Two answer sentences share a
// citation only when they rest on the same paragraph of the same section (same label).

/** Most consecutive sentences one claim is traced to (a list's lead-in and its points). */
const MAX_WINDOW = 4;

/** "12." before a quoted paragraph's first sentence: dropped from the quote, still in the source. */
const PARAGRAPH_NUMBER_CHARS = 3;

/** Letters and digits only, lower-cased: a quote compared whatever its spacing, punctuation or inert keys. */
const bare = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/**
 * The run of consecutive sentences a claim quotes word for word (an extractive answer's sentence,
 * less the paragraph number it opened with). Matching by shared words alone cited DORA Art. 2(3)'s
 * "This Regulation does not apply to:" at Art. 2(1), whose "… this Regulation applies to the
 * following entities:" shares the same words and comes first.
 */
function quotedRun(block: ContextBlock, claim: string): Candidate[] | undefined {
  const wanted = bare(claim);
  if (wanted.length === 0) return undefined;
  for (let i = 0; i < block.units.length; i++) {
    let run = "";
    for (let j = i; j < Math.min(block.units.length, i + MAX_WINDOW); j++) {
      run += bare(block.units[j]?.unit.text ?? "");
      if (run.length > wanted.length + PARAGRAPH_NUMBER_CHARS) break;
      if (run.endsWith(wanted) && run.length - wanted.length <= PARAGRAPH_NUMBER_CHARS) return block.units.slice(i, j + 1);
    }
  }
  return undefined;
}

/**
 * The run of consecutive quoted sentences holding most of the claim's words, the shortest such run
 * on a tie: a claim usually restates one passage, and a passage is what an auditor looks up.
 */
export function unitsForClaim(block: ContextBlock, claim: string): Candidate[] {
  const quoted = quotedRun(block, claim);
  if (quoted !== undefined) return quoted;
  const words = new Set(contentStems(claim));
  let best: Candidate[] = [];
  let bestCovered = 0;
  for (let i = 0; i < block.units.length; i++) {
    const covered = new Set<string>();
    for (let j = i; j < Math.min(block.units.length, i + MAX_WINDOW); j++) {
      const unit = block.units[j];
      if (unit === undefined) break;
      for (const s of words) if (unit.stems.has(s)) covered.add(s);
      const size = j - i + 1;
      if (covered.size > bestCovered || (covered.size === bestCovered && covered.size > 0 && size < best.length)) {
        bestCovered = covered.size;
        best = block.units.slice(i, j + 1);
      }
    }
  }
  return best;
}

export interface SentenceCitations {
  sentences: AskSentence[];
  /** One per distinct (section, label), keyed S1, S2, … in order of first use. */
  citations: AskCitation[];
  /** Context key → the citation keys it became (for text that still cites the context's keys). */
  keyMap: Map<string, string[]>;
}

/** Re-keys the sentences' citations from context blocks to the passages each sentence rests on. */
export function citeSentences(sentences: readonly AskSentence[], context: AnswerContext): SentenceCitations {
  const citations: AskCitation[] = [];
  const byIdentity = new Map<string, AskCitation>();
  const keyMap = new Map<string, string[]>();
  const out = sentences.map((sentence): AskSentence => {
    const keys: string[] = [];
    const evidence: Array<{ key: string; start: number; end: number }> = [];
    for (const contextKey of sentence.citationKeys) {
      const block = context.byKey.get(contextKey);
      if (block === undefined) continue;
      const found = unitsForClaim(block, sentence.text);
      const units = found.length > 0 ? found : block.units;
      const draft = blockCitation("S0", block.result, units);
      const identity = `${draft.sectionId}|${draft.label}`;
      let citation = byIdentity.get(identity);
      if (citation === undefined) {
        citation = { ...draft, key: `S${citations.length + 1}` };
        byIdentity.set(identity, citation);
        citations.push(citation);
      } else {
        const spans = [...(citation.spans ?? []), ...(draft.spans ?? [])];
        citation.spans = spans.filter((s, i) => spans.findIndex((o) => o.start === s.start && o.end === s.end) === i).sort((a, b) => a.start - b.start);
      }
      if (!keys.includes(citation.key)) keys.push(citation.key);
      const mapped = keyMap.get(contextKey) ?? [];
      if (!mapped.includes(citation.key)) keyMap.set(contextKey, [...mapped, citation.key]);
      for (const u of units) evidence.push({ key: citation.key, start: u.unit.start, end: u.unit.end });
    }
    const { evidence: _old, ...rest } = sentence;
    void _old;
    return evidence.length > 0 ? { ...rest, citationKeys: keys, evidence } : { ...rest, citationKeys: keys };
  });
  return { sentences: out, citations, keyMap };
}
