import type { AskCitation, AskResult } from "./ask-types.ts";

// The citations of one answer in reading order, each with the exact range it highlights: what the
// viewer's "Previous citation" / "Next citation" step through (the auditor reads every
// cited sentence of an answer on its page, one after the other).

export interface CitationStop {
  citation: AskCitation;
  /** The cited sentence's range in the section text; absent: the citation's first span. */
  emphasis?: { start: number; end: number };
}

export interface CitationTrail {
  stops: CitationStop[];
  index: number;
}

/**
 * What a sentence quotes of the passage it cites under `key`: from its first cited stretch to its
 * last. A sentence read across two units ("(A) Risk analysis (Required)." and "Conduct an accurate
 * and thorough assessment …", one line after the other) highlights all it quotes, not its opening.
 */
export function quotedRange(sentence: Pick<AskResult["sentences"][number], "evidence">, key: string): { start: number; end: number } | undefined {
  const cited = (sentence.evidence ?? []).filter((e) => e.key === key);
  if (cited.length === 0) return undefined;
  return { start: Math.min(...cited.map((e) => e.start)), end: Math.max(...cited.map((e) => e.end)) };
}

/** Every (sentence, citation) of the answer in order, a passage cited twice kept once. */
export function citationStops(result: Pick<AskResult, "sentences" | "citations">): CitationStop[] {
  const byKey = new Map(result.citations.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const stops: CitationStop[] = [];
  for (const s of result.sentences) {
    for (const key of s.citationKeys) {
      const citation = byKey.get(key);
      if (citation === undefined) continue;
      const emphasis = quotedRange(s, key);
      const id = `${key}:${emphasis?.start ?? ""}`;
      if (seen.has(id)) continue;
      seen.add(id);
      stops.push(emphasis === undefined ? { citation } : { citation, emphasis });
    }
  }
  // Citations no sentence names (older answers) still get a stop each.
  for (const c of result.citations) if (!stops.some((s) => s.citation.key === c.key)) stops.push({ citation: c });
  return stops;
}

/** The trail positioned at the stop for this citation and range (the first stop of the citation otherwise). */
export function trailAt(stops: CitationStop[], citation: AskCitation, emphasis?: { start: number; end: number }): CitationTrail {
  const exact = stops.findIndex((s) => s.citation.key === citation.key && s.emphasis?.start === emphasis?.start);
  const index =
    exact >= 0
      ? exact
      : Math.max(
          0,
          stops.findIndex((s) => s.citation.key === citation.key),
        );
  return { stops, index };
}
