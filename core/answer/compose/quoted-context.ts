import { blockCitation, renderBlock, type AnswerContext, type ContextBlock } from "./context-builder.ts";
import type { DraftSentence } from "./parse-llm-output.ts";
import { neutralizeKeys } from "./neutralize.ts";
import type { Candidate, SentencePool } from "./sentence-pool.ts";

// How a quoted answer (extractive-answer.ts) reads: the pool's sentences by section, what is shown
// before "show more", and the citation blocks built from what is quoted.

/** Words an answer shows before "show more", set by bench:answer so the mean stays within about 90. */
export const SHOWN_WORDS = 110;

export const countWords = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** A quoted sentence as answer text: inert keys, one line, without the paragraph number. */
export function quoteText(text: string): string {
  return neutralizeKeys(text)
    .replace(/\s+/g, " ")
    .replace(/^\d{1,3}\.\s+/, "")
    .trim();
}

/**
 * What is shown before "show more": the lead always, then the sentences after it in order while the
 * answer stays within SHOWN_WORDS; from the first that does not fit, the rest waits under "show
 * more" (a long list shows its first points and "n more"). Everything stays cited.
 */
export function markShown(drafts: DraftSentence[]): void {
  let words = 0;
  let hiding = false;
  drafts.forEach((d, i) => {
    const w = countWords(d.text);
    if (i > 0 && (hiding || words + w > SHOWN_WORDS)) {
      hiding = true;
      d.more = true;
      return;
    }
    d.more = false;
    words += w;
  });
}

/** One section's sentences in document order, as the pool has them. */
export interface SectionUnits {
  resultIndex: number;
  units: Candidate[];
}

export function sectionsOf(pool: SentencePool): { sections: SectionUnits[]; sectionOf: Map<Candidate, SectionUnits> } {
  const byIndex = new Map<number, SectionUnits>();
  for (const c of pool.candidates) {
    let s = byIndex.get(c.resultIndex);
    if (s === undefined) {
      s = { resultIndex: c.resultIndex, units: [] };
      byIndex.set(c.resultIndex, s);
    }
    s.units.push(c);
  }
  const sectionOf = new Map<Candidate, SectionUnits>();
  for (const s of byIndex.values()) {
    s.units.sort((a, b) => a.unit.start - b.unit.start);
    for (const c of s.units) sectionOf.set(c, s);
  }
  return { sections: [...byIndex.values()], sectionOf };
}

/** Blocks for the quoted sentences: one per section, keyed in order of first use. */
export function contextOf(chosen: ReadonlyArray<{ units: Candidate[] }>): { context: AnswerContext; keyOf: Map<number, string> } {
  const keyOf = new Map<number, string>();
  const unitsOf = new Map<number, Candidate[]>();
  for (const { units } of chosen) {
    for (const c of units) {
      if (!keyOf.has(c.resultIndex)) keyOf.set(c.resultIndex, `S${keyOf.size + 1}`);
      const list = unitsOf.get(c.resultIndex) ?? [];
      if (!list.includes(c)) list.push(c);
      unitsOf.set(c.resultIndex, list);
    }
  }
  const blocks: ContextBlock[] = [];
  for (const [index, key] of keyOf) {
    const units = (unitsOf.get(index) ?? []).sort((a, b) => a.unit.start - b.unit.start);
    const first = units[0];
    if (first === undefined) continue;
    const triplets = [...new Map(units.flatMap((c) => c.triplets).map((t) => [t.id, t])).values()];
    blocks.push({ key, result: first.result, units, triplets, citation: blockCitation(key, first.result, units) });
  }
  const text = blocks.map(renderBlock).join("\n\n");
  return { context: { blocks, byKey: new Map(blocks.map((b) => [b.key, b])), text, tokens: Math.ceil(text.length / 4) }, keyOf };
}
