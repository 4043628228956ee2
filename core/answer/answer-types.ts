import type { Embedder } from "../embed/embedder.ts";
import type { LlmClient } from "../llm/llm-client.ts";
import type { Subgraph } from "../retrieve/subgraph-types.ts";
import type { RankedSection } from "../retrieve/types.ts";
import type { TripletRecord } from "../store/graph-types.ts";

// The answer to a question, as plain data: the engine returns it, the CLI prints it and the IPC
// contract validates it (answer-schemas.ts mirrors these shapes in zod).

/** The one sentence that says the evidence is missing; the UI and tests match it exactly. */
export const REFUSAL = "The documents provided do not answer this.";

/** "llm" when a model wrote the answer; "extractive" when it is quoted from the documents. */
export type AnswerMode = "llm" | "extractive";

export interface AskCitation {
  /** "S1", "S2", …: the key the answer uses in brackets ("[S1]"). */
  key: string;
  sectionId: string;
  documentId: string;
  /** Base name of the document's file. */
  file: string;
  /** How an auditor writes the citation: "DORA Art. 19(4), p. 42". */
  label: string;
  /** Pages of the cited text (narrower than the section's when only part of it is cited). */
  pageStart: number;
  pageEnd: number;
}

export interface AskSentence {
  /** The sentence without its citation keys. */
  text: string;
  /** Keys of AskResult.citations this sentence relies on (unknown keys have been removed). */
  citationKeys: string[];
  /**
   * False when the sentence is not backed by the text it cites (or cites nothing, or cited a key
   * that does not exist): show it as unverified, never as a finding.
   */
  supported: boolean;
}

export interface AskTimings {
  retrieveMs: number;
  /** Prompt tokens the model read; 0 without a model. */
  promptTokens: number;
  /** From the start of answering to the first streamed token; null when no model generated text. */
  firstTokenMs: number | null;
  /** Retrieval plus answering. */
  totalMs: number;
}

export interface AskResult {
  /**
   * The answer as display text: sentences with their keys ("… within 72 hours [S1]."); sentences
   * that failed verification end with "[unverified]".
   */
  answer: string;
  mode: AnswerMode;
  /** Only the keys the answer cites, in key order. */
  citations: AskCitation[];
  sentences: AskSentence[];
  /** Triplets of the cited sections. */
  triplets: TripletRecord[];
  subgraph: Subgraph;
  /** The model's one-line analysis, or why the answer fell back to quoting. */
  analysis?: string;
  timings: AskTimings;
}

export interface AskOptions {
  /** Most answer sentences in extractive mode (default 6). */
  maxSentences?: number;
  /** Token budget of the context handed to the model or quoted from (default: fitted to the model, 1,800 without one). */
  contextTokens?: number;
  /** Most tokens the model may write (default: a quarter of its context, 64–512). */
  maxAnswerTokens?: number;
  /** Sampling temperature for the answer (default 0: reproducible answers for an audit trail). */
  temperature?: number;
}

export interface AskInput {
  question: string;
  /** Already retrieved, best first. */
  results: readonly RankedSection[];
  /** Triplets of those sections. */
  triplets: readonly TripletRecord[];
  subgraph: Subgraph;
  embedder: Embedder | null;
  llm: LlmClient | null;
  /** Raw model text as it streams (not called without a model); AskResult.answer is the verified version. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  retrieveMs: number;
  options?: AskOptions;
  /**
   * Names the question gives (acronyms, titled acts) that no imported document mentions
   * (question-names.ts): the question is about a document not imported, and is not answered.
   */
  missingNames?: readonly string[];
}
