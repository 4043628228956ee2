// The stored shape of a comparison (schema v7): plain records the store reads and writes; what
// they mean is core/compare/'s business (the JSON columns hold its reasons, flags, evidence and
// verdicts, parsed there with zod).

/** A vector to find the nearest sections of (core/store/kuzu/vector-neighbours.ts). */
export interface VectorQuery {
  id: string;
  vector: Float32Array;
}

export type ComparisonStatus = "computing" | "complete" | "partial";

export interface ComparisonRecord {
  /** `${documentId}~${otherDocumentId || "library"}`: comparing the same two again refreshes it. */
  id: string;
  /** Side A: every one of its sections gets its best matches. */
  documentId: string;
  /** Side B; "" when A was compared with the whole library. */
  otherDocumentId: string;
  /** The documents of side B when it was computed (B alone, or every other document of the library). */
  libraryDocuments: string[];
  k: number;
  /** The embedding model of the vectors it was computed from. */
  embeddingModel: string;
  /** core/compare/crosswalk-model.ts SCORER_VERSION it was scored with. */
  scorerVersion: string;
  /** The language model of its verdicts ("" when none). */
  llmModel: string;
  /** "computing" until its edges are written; "partial" when the model's verdicts were stopped half-way. */
  status: ComparisonStatus;
  /** Sections of A compared. */
  sections: number;
  /** Candidate pairs scored. */
  pairsExamined: number;
  createdAt: string;
  updatedAt: string;
}

/** One SIMILAR_TO edge: an A section, one of its k best B sections, and why. */
export interface SimilarToRecord {
  comparisonId: string;
  aSectionId: string;
  bSectionId: string;
  embeddingModel: string;
  /** 1 = best match. */
  rank: number;
  score: number;
  /** Content hashes of both sections when the edge was computed. */
  aHash: string;
  bHash: string;
  /** JSON written and read by core/compare/. */
  reasons: string;
  flags: string;
  evidence: string;
  /** "" until a model gave its verdict. */
  verdict: string;
}

/** The rows of a comparison one write replaces: every edge of `aSectionIds`, by `edges`. */
export interface ComparisonWrite {
  comparison: ComparisonRecord;
  /** A sections whose edges are replaced (their old edges are deleted first). */
  aSectionIds: string[];
  edges: SimilarToRecord[];
}

export interface ComparisonCacheEntry {
  key: string;
  /** What is cached: "verdict". */
  kind: string;
  modelId: string;
  version: string;
  json: string;
}

export interface VerdictUpdate {
  aSectionId: string;
  bSectionId: string;
  verdict: string;
}
