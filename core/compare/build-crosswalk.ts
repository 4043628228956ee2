import type { ScoredId } from "../model/graph-records.ts";
import { backgroundCosines, idfOf, pairSignals, type CitationLink, type FeatureContext, type PairSignals } from "./crosswalk-features.ts";
import { matchScore, type CrosswalkModel, CROSSWALK_MODEL } from "./crosswalk-model.ts";
import { buildLexicalSpace } from "./lexical-space.ts";
import type { SectionProfile } from "./section-profile.ts";

// The crosswalk without a model: for every section of A, candidates from nearest-neighbour
// searches (the stored section vectors through the HNSW index, and the lexical index), plus any
// section it cites or that cites it; each candidate pair is scored on all signals and the k best
// are kept. A section is thus compared with a few neighbours, never with every section of B:
// pairs examined ≈ (vector neighbours + lexical neighbours) × sections of A, printed by the CLI
// and bench:compare.

export interface CrosswalkInput {
  a: readonly SectionProfile[];
  b: readonly SectionProfile[];
  k: number;
  /** Candidates taken from the lexical and heading searches per A section (default candidatesPerSearch(k)). */
  candidates?: number;
  /** Candidates taken from the vector search (default vectorCandidates(k)); vectorNeighbours must hold as many. */
  vectorCandidates?: number;
  /** A section id → its nearest B sections by stored vector (the HNSW search; may be empty). */
  vectorNeighbours: ReadonlyMap<string, readonly ScoredId[]>;
  /** Stored vectors of the sections of both sides (for the similarity of lexical-only candidates). */
  vectors: ReadonlyMap<string, Float32Array>;
  headingVectors: ReadonlyMap<string, Float32Array>;
  /** A section id → B section id → citation between them. */
  citations: ReadonlyMap<string, ReadonlyMap<string, CitationLink>>;
  model?: CrosswalkModel;
}

export interface ScoredCandidate {
  b: SectionProfile;
  score: number;
  signals: PairSignals;
  /** Which searches proposed it: "vector", "lexical", "citation". */
  foundBy: string[];
}

export interface CrosswalkDraftRow {
  a: SectionProfile;
  /** Every candidate examined, best first. */
  candidates: ScoredCandidate[];
}

export interface CrosswalkDraft {
  rows: CrosswalkDraftRow[];
  /** Candidate pairs whose signals were computed. */
  pairsExamined: number;
}

/**
 * Neighbours taken from the lexical and heading searches: k each. On the labelled crosswalks 2k
 * each found a few more labelled matches as candidates but ranked no more of them in the top 3,
 * at more pairs examined (bench:compare).
 */
export function candidatesPerSearch(k: number): number {
  return Math.max(1, k);
}

/** From the vector search: 2k (VECTOR_FACTOR). It finds what the words miss, lower down its list. */
export function vectorCandidates(k: number): number {
  return Math.max(1, VECTOR_FACTOR * k);
}

const VECTOR_FACTOR = 2;

/** B's lexical neighbours among A: how far each B section reaches into A (centrality, reciprocal rank). */
const REVERSE_NEIGHBOURS = 10;
const CENTRALITY_NEIGHBOURS = 5;

export function buildCrosswalk(input: CrosswalkInput): CrosswalkDraft {
  const m = Math.max(1, input.candidates ?? candidatesPerSearch(input.k));
  const mv = Math.max(1, input.vectorCandidates ?? vectorCandidates(input.k));
  const all = [...input.a, ...input.b];
  const aIds = input.a.map((p) => p.section.id);
  const bIds = input.b.map((p) => p.section.id);
  const pools = new Map([
    ["a", aIds],
    ["b", bIds],
  ]);
  const lexical = buildLexicalSpace(
    all.map((p) => ({ id: p.section.id, terms: p.terms })),
    pools,
  );
  const headingLexical = buildLexicalSpace(
    all.flatMap((p) => [
      { id: `h:${p.section.id}`, terms: p.headingTerms },
      { id: `t:${p.section.id}`, terms: p.terms },
    ]),
    new Map([["b", bIds.map((id) => `h:${id}`)]]),
  );

  const centrality = new Map<string, number>();
  const reverseRank = new Map<string, Map<string, number>>();
  for (const bId of bIds) {
    const near = lexical.nearest(bId, "a", REVERSE_NEIGHBOURS);
    const top = near.slice(0, CENTRALITY_NEIGHBOURS);
    centrality.set(bId, top.reduce((sum, n) => sum + n.score, 0) / CENTRALITY_NEIGHBOURS);
    reverseRank.set(bId, new Map(near.map((n, i) => [n.id, i + 1])));
  }
  const ctx: FeatureContext = {
    lexical,
    headingLexical,
    vectors: input.vectors,
    headingVectors: input.headingVectors,
    vectorBackground: backgroundCosines(aIds, bIds, input.vectors),
    headingBackground: backgroundCosines(aIds, bIds, input.headingVectors),
    termIdf: idfOf(all.map((p) => p.definedTerms)),
    partyIdf: idfOf(all.map((p) => p.obligationWords)),
    citations: input.citations,
    centrality,
    reverseRank,
  };

  const bById = new Map(input.b.map((p) => [p.section.id, p]));
  let pairsExamined = 0;
  const rows: CrosswalkDraftRow[] = [];
  for (const a of input.a) {
    const aId = a.section.id;
    const found = new Map<string, string[]>();
    const propose = (bId: string, by: string): void => {
      if (!bById.has(bId)) return;
      const list = found.get(bId);
      if (list === undefined) found.set(bId, [by]);
      else if (!list.includes(by)) list.push(by);
    };
    for (const n of (input.vectorNeighbours.get(aId) ?? []).slice(0, mv)) propose(n.id, "vector");
    for (const n of lexical.nearest(aId, "b", m)) if (n.score > 0) propose(n.id, "lexical");
    for (const n of headingLexical.nearest(`h:${aId}`, "b", m)) if (n.score > 0) propose(n.id.slice(2), "heading");
    for (const bId of input.citations.get(aId)?.keys() ?? []) propose(bId, "citation");
    const candidates: ScoredCandidate[] = [];
    for (const [bId, foundBy] of found) {
      const b = bById.get(bId);
      if (b === undefined) continue;
      const signals = pairSignals(ctx, a, b);
      candidates.push({ b, signals, score: matchScore(signals.features, input.model ?? CROSSWALK_MODEL), foundBy });
    }
    pairsExamined += candidates.length;
    candidates.sort((x, y) => y.score - x.score || x.b.section.ordinal - y.b.section.ordinal || (x.b.section.id < y.b.section.id ? -1 : 1));
    rows.push({ a, candidates });
  }
  return { rows, pairsExamined };
}
