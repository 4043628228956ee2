import type { ObligationRow, PairEvidence, PairFlag } from "../model/compare-schemas.ts";
import { matchingSentences } from "./matching-sentences.ts";
import { diffObligations } from "./obligation-diff.ts";
import type { EnglishStems } from "../text/index.ts";
import type { SectionProfile } from "./section-profile.ts";

// What an aligned pair is analysed for once it is among A's k best: the rule-based flags of its
// obligations and the sentences that match. Depends on the two sections alone (their text and
// triplets), so a pair analysed once reads the same in every comparison that holds it.

/** Matching sentence pairs kept per match: enough to highlight, few enough to read. */
export const EVIDENCE_SENTENCES = 3;

export interface PairAnalysis {
  flags: PairFlag[];
  evidence: PairEvidence;
  obligations: ObligationRow[];
}

export function analysePair(
  a: Pick<SectionProfile, "section" | "triplets" | "language">,
  b: Pick<SectionProfile, "section" | "triplets" | "language">,
  stems: EnglishStems,
): PairAnalysis {
  const diff = diffObligations(
    { text: a.section.text, triplets: a.triplets, language: a.language },
    { text: b.section.text, triplets: b.triplets, language: b.language },
    stems,
  );
  const sentences = matchingSentences(a.section.text, b.section.text, a.language, stems, EVIDENCE_SENTENCES).map((p) => ({
    a: { start: p.a.start, end: p.a.end },
    b: { start: p.b.start, end: p.b.end },
    score: Math.round(p.score * 1000) / 1000,
  }));
  return { flags: diff.flags, evidence: { sentences }, obligations: diff.rows };
}
