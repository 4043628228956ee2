import type { Embedder } from "./embedder.ts";
import type { LlmClient } from "./llm-client.ts";
import type { Subgraph } from "./subgraph-types.ts";
import type { RankedSection } from "./retrieval-types.ts";
import type { TripletRecord } from "./graph-records.ts";
import type { AnswerRoute, GraphRow } from "./graph-answer-types.ts";
import type { AnswerType, QuestionAnalysis, YesNoModality } from "./question-analysis-types.ts";
import type { SentenceFeatures } from "./sentence-features.ts";
import type { AskCitation } from "./ask-citation.ts";
import type { AnswerRule, InLibraryFeature, InLibraryRule } from "./answer-rules.ts";

// The answer to a question, as plain data: the engine returns it, the CLI prints it and the IPC
// contract validates it (answer-schemas.ts mirrors these shapes in zod).

/** The one sentence that says the evidence is missing; the UI and tests match it exactly. */
export const REFUSAL = "The documents provided do not answer this.";

/** "llm" when a model wrote the answer; "extractive" when it is quoted from the documents. */
export type AnswerMode = "llm" | "extractive";

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
  /** Per cited key, the range of the section text this sentence rests on (its own highlight). */
  evidence?: Array<{ key: string; start: number; end: number }>;
  /**
   * Extractive answers: "lead" carries what was asked (shown first), "point" is an item of the
   * list the lead introduces, "support" backs it (shown under "show more" past the first).
   */
  role?: "lead" | "point" | "support";
  /** Extractive answers: the named rule that placed the sentence (answer-rules.ts). */
  rule?: AnswerRule;
  /**
   * Shown under "show more": the answer as first shown stays near 90 words; what
   * follows it (the rest of a long list, further support) is cited all the same.
   */
  more?: boolean;
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
  /** For a yes/no question, what the lead sentence says: "no" (prohibited), "yes", or "conditional" (only if …). */
  verdict?: "yes" | "no" | "conditional";
  /** Whether the library answers the question at all: the rule that decided, and the fitted decision's figures (in-library.ts). */
  inLibrary?: { rule: InLibraryRule; probability: number | null; features: Record<InLibraryFeature, number> | null };
  /** Why the question was not answered, in words ("No imported document is MiCA (Regulation (EU) 2023/1114)…"); absent when it was. */
  refusalReason?: string;
  timings: AskTimings;
  /** The answer's record in the answer log (what exports and reopened conversations read); absent when it could not be logged. */
  logId?: string;
  /** The conversation the answer was recorded in, when it was asked in one. */
  conversationId?: string;
  /** Set when the question was taken as a follow-up: what was retrieved with, and why. */
  followUp?: { question: string; reason: string };
  /** The model that wrote the answer, or was asked to and fell back to quoting: id and the name shown for it. */
  model?: { id: string; name: string };
  /** Why the model's answer is cut short or was replaced by quoted sentences; shown with the answer. */
  notice?: AnswerNotice;
  /** Where the answer came from (graph query, text retrieval, both) and why (core/graph-query/). */
  route?: AnswerRoute;
  /** The rows a graph query found, each citing its section and page (core/graph-query/). */
  rows?: GraphRow[];
  /** The question's everyday words the search also looked for in the regulations' wording (core/retrieve/legal-thesaurus.ts). */
  expansions?: AskExpansion[];
  /** With a model: the queries it rewrote the question into, searched beside it (core/answer/question/query-rewrite.ts). */
  rewrites?: { queries: string[]; dropped: number; ms: number; stoppedBy: "time-limit" | "token-limit" | null; error?: string };
}

/** One lay expression of the question and the regulatory words searched for it. */
export interface AskExpansion {
  from: string;
  to: string[];
  added: string[];
  source: "lexicon" | "acronym";
  /** The instruments whose sense was taken; empty for a sense all share. */
  instruments: string[];
}

/**
 * time-limit / token-limit: a cap stopped the model (answer-limits.ts); no-citations: what it wrote
 * cited none of the sources; context-too-small: the sources did not fit its window; model-unavailable:
 * the chosen model could not be loaded; closest-provisions: the library may not answer the question,
 * and the closest provisions are quoted (in-library.ts).
 */
export type AnswerNoticeReason = "time-limit" | "token-limit" | "no-citations" | "context-too-small" | "model-unavailable" | "closest-provisions";

export interface AnswerNotice {
  reason: AnswerNoticeReason;
  /** True when the answer is quoted from the documents instead of the model's; false when the model's answer is kept but cut short. */
  quoted: boolean;
  /** In words, for the auditor. */
  message: string;
}

export interface AskOptions {
  /** Most answer sentences in extractive mode (default 6). */
  maxSentences?: number;
  /** Token budget of the context handed to the model or quoted from (default: fitted to the model, 1,800 without one). */
  contextTokens?: number;
  /** Most tokens the model may write (default: a quarter of its context, 64–512; never more than a quarter, so the sources fit). */
  maxAnswerTokens?: number;
  /** Wall-clock cap on the model's generation, prompt reading included (default: none). */
  maxSeconds?: number;
  /** Sampling temperature for the answer (default 0: reproducible answers for an audit trail). */
  temperature?: number;
  /** Below this fitted probability that the library answers, the question is refused (default: in-library.ts's REFUSE_BELOW; 0: never by it). */
  refuseBelow?: number;
}

/** What the question asks for (from question analysis), as the extractive answer uses it. */
export interface AnswerHints {
  /** "deadline", "definition", "yes-no", … (question-analysis.ts); "other" when unknown. */
  answerType: AnswerType;
  /** For a yes/no question: whether it asks about a permission, an obligation, a prohibition or a fact. */
  modality?: YesNoModality;
  /** Provision labels the question names ("Article 33", "§ 164.308"): their sentences lead. */
  provisions: readonly string[];
  /** Parties the question names ("financial entity"). */
  parties: readonly string[];
  /** The question's language: words are matched with its stemmer (default English). */
  language?: "en" | "it";
  /** Further things the question asks for ("… and to whom?" → ["party"]). */
  alsoAsks?: readonly string[];
  /** A follow-up's own words ("what about processors?" → "processors"): a sentence saying them leads. */
  subject?: string;
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
  /** What the question asks for: the extractive answer leads with the sentence carrying it. */
  hints?: AnswerHints;
  /**
   * The languages the library's documents are written in ("und" when a document's could not be
   * told): a question in none of them is not answered from it.
   */
  libraryLanguages?: ReadonlySet<string>;
  /** The query retrieval ran (the question plus its answer type's words); sentences are scored against it. */
  retrievalQuery?: string;
  /** The question read once by engine.ask (question-analysis.ts): answer type, scope, missing instruments, focus terms. */
  analysis?: QuestionAnalysis;
  /** Told every scored candidate sentence (benches fit the sentence weights from it). */
  trace?: (trace: AnswerTrace) => void;
  /** For results that are a later part of a long provision, the text of its earlier parts (earlier-parts.ts). */
  earlierParts?: ReadonlyMap<string, string>;
}

/** One candidate sentence as it was scored (sentence-score.ts), for explaining and fitting. */
export interface TracedCandidate {
  sectionId: string;
  documentId: string;
  sectionLabel: string;
  /** Rank of its section among those answered from (0 = first). */
  resultIndex: number;
  text: string;
  start: number;
  end: number;
  paragraph: string | null;
  pinpoint: string | null;
  features: SentenceFeatures;
  /** Raw cosine of the sentence's and the question's embeddings, when it was embedded. */
  similarity?: number;
  prior: number;
  score: number;
  relevant: boolean;
}

export interface AnswerTrace {
  candidates: TracedCandidate[];
}
