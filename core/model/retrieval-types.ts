import type { DocumentRecord } from "./store-records.ts";
import type { Section } from "./section-types.ts";

// Shapes shared by the retrieval stages, the fusion and whoever shows results (CLI, UI).

export type StageName = "bm25" | "sectionVectors" | "tripletVectors" | "graphExpansion";

export interface StageSwitches {
  bm25: boolean;
  sectionVectors: boolean;
  tripletVectors: boolean;
  graphExpansion: boolean;
  rescore: boolean;
}

/** One stage's view of a candidate: its 1-based rank in that stage and the stage's own score. */
export interface StageHit {
  rank: number;
  score: number;
}

export type GraphRelation = "parent" | "child" | "cites" | "cited-by" | "term";

/** Why graph expansion added (or boosted) a section: the seed it was reached from and how. */
export interface GraphLink {
  from: string;
  relation: GraphRelation;
}

/** Everything that made a section rank where it did, for the UI's "why this result". */
export interface SectionEvidence {
  stages: Partial<Record<StageName, StageHit>>;
  /** Triplets whose embedding matched the query, in this section. */
  tripletIds: string[];
  links: GraphLink[];
  /** The feature values the final score was computed from (names as in HybridWeights). */
  features: Record<string, number>;
}

export interface RankedSection {
  section: Section;
  document: DocumentRecord;
  /** The fused (and, when enabled, re-scored) score; only its order is meaningful. */
  score: number;
  /** 1-based. */
  rank: number;
  /**
   * Set when ranked for an answer (answer-ranking.ts): its answer score over the best one's, 0–1.
   * Sentences are scored on it, not on the rank alone.
   */
  standing?: number;
  evidence: SectionEvidence;
}
