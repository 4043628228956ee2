import { splitSentences } from "../structure/sentences.ts";

// Long sections are cut between sentences so each prompt fits the model's context. A sentence
// longer than the whole budget (a run-on annex table) is cut between words: a fact split in two is
// lost, but a prompt that does not fit would lose everything.

export type CountTokens = (text: string) => number;

function splitLongSentence(sentence: string, budget: number, count: CountTokens): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of sentence.split(/\s+/).filter((w) => w !== "")) {
    const candidate = current === "" ? word : `${current} ${word}`;
    if (current !== "" && count(candidate) > budget) {
      out.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/** Consecutive sentences of `text` grouped so each group takes at most `budget` tokens. */
export function chunkBySentence(text: string, budget: number, count: CountTokens): string[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (count(trimmed) <= budget) return [trimmed];
  const limit = Math.max(1, Math.floor(budget));
  const chunks: string[] = [];
  let current = "";
  for (const sentence of splitSentences(trimmed.replace(/\s*\n\s*/g, " "))) {
    const pieces = count(sentence) > limit ? splitLongSentence(sentence, limit, count) : [sentence];
    for (const piece of pieces) {
      const candidate = current === "" ? piece : `${current} ${piece}`;
      if (current !== "" && count(candidate) > limit) {
        chunks.push(current);
        current = piece;
      } else {
        current = candidate;
      }
    }
  }
  if (current !== "") chunks.push(current);
  return chunks;
}
