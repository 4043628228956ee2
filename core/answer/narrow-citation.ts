import type { AskCitation } from "./answer-types.ts";
import { blockCitation, type ContextBlock } from "./context-builder.ts";
import { contentStems } from "./lexical.ts";
import type { Candidate } from "./sentence-pool.ts";

// A key stands for a whole context block, which may quote several paragraphs over two pages. The
// citation shown should point where the claim is printed: the block's sentences that carry the
// words of the answer sentences citing it ("DORA Art. 19(4), p. 42" rather than "Art. 19(1), (2),
// (4), pp. 41–42").

/** Most consecutive sentences one claim is traced to (a list's lead-in and its points). */
const MAX_WINDOW = 4;

/**
 * The run of consecutive quoted sentences holding most of the claim's words, the shortest such run
 * on a tie: a claim usually restates one passage, and a passage is what an auditor looks up.
 */
function unitsForClaim(block: ContextBlock, claim: string): Candidate[] {
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

export function narrowCitation(block: ContextBlock, claims: readonly string[]): AskCitation {
  const units = new Set<Candidate>();
  for (const claim of claims) for (const c of unitsForClaim(block, claim)) units.add(c);
  if (units.size === 0) return block.citation;
  return blockCitation(block.key, block.result, [...units].sort((a, b) => a.unit.start - b.unit.start));
}
