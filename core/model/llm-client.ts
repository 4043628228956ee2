// What the engine needs from a local language model, whatever runs it (node-llama-cpp with a GGUF
// file, or a scripted double in tests). Extraction and answering depend only on this.

/** A JSON schema in the subset node-llama-cpp turns into a grammar (objects, arrays, strings, enums). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface LlmGenerateOptions {
  /** The system prompt: instructions the document text must not be able to override. */
  system?: string;
  prompt: string;
  maxTokens?: number;
  /** 0 for deterministic output (extraction); answers may use a little more. */
  temperature?: number;
  /** When set, the output is forced by a grammar to be JSON matching this schema. */
  jsonSchema?: JsonSchema;
  /** When set (and jsonSchema is not), the output is forced by this GBNF grammar (graph questions' Cypher). */
  grammar?: string;
  /** Streamed text as it is generated. */
  onToken?: (text: string) => void;
  /** Aborting makes generate() reject with CANCELLED; what was generated so far has been streamed. */
  signal?: AbortSignal;
}

export interface LlmResult {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** Milliseconds from the call to the first generated token; null when nothing was generated. */
  firstTokenMs: number | null;
  totalMs: number;
  /** "maxTokens" when the answer was cut off (JSON output is then incomplete); "end" otherwise. */
  stopReason?: "end" | "maxTokens";
}

export interface LlmClient {
  /** The model id from the manifest, or the file name of an imported model. */
  readonly modelId: string;
  readonly contextSize: number;
  generate(options: LlmGenerateOptions): Promise<LlmResult>;
  /** Tokens the text takes in this model's vocabulary: for fitting context into the window. */
  countTokens(text: string): number;
  close(): Promise<void>;
}
