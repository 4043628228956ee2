import {
  type ChatHistoryItem,
  type ChatWrapper,
  type GbnfJsonSchema,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
  LlamaChatSession,
} from "node-llama-cpp";
import { ClauseGraphError, isClauseGraphError } from "../model/errors.ts";
import type { JsonSchema, LlmClient, LlmGenerateOptions, LlmResult } from "../model/llm-client.ts";
import type { LlmSettings } from "./llm-settings.ts";

// LlmClient over one loaded GGUF model and one context with a single sequence. Every generate() is
// independent (fresh chat history: system + prompt); calls are queued because a sequence evaluates
// one thing at a time. Cancellation throws CANCELLED, like every other cancellable engine operation;
// the text generated until then has already been streamed through onToken.

export interface LlamaClientParts {
  modelId: string;
  modelPath: string;
  architecture: string;
  settings: LlmSettings;
  model: LlamaModel;
  context: LlamaContext;
  /** Called once, after the model and context are freed. */
  onClosed: () => Promise<void>;
  createGrammar: (schema: GbnfJsonSchema) => Promise<LlamaGrammar>;
  /** A grammar from GBNF text (graph questions' Cypher, core/graph-query/cypher-grammar.ts). */
  createTextGrammar: (gbnf: string) => Promise<LlamaGrammar>;
}

/** What a loaded node-llama-cpp model tells beyond the LlmClient contract. */
export interface LoadedLlm extends LlmClient {
  readonly modelPath: string;
  readonly architecture: string;
  readonly settings: LlmSettings;
}

function abortReasonIsClose(reason: unknown): boolean {
  return reason instanceof ClauseGraphError && reason.code === "CANCELLED";
}

export class LlamaClient implements LoadedLlm {
  readonly modelId: string;
  readonly modelPath: string;
  readonly architecture: string;
  readonly settings: LlmSettings;
  readonly contextSize: number;
  private readonly model: LlamaModel;
  private readonly context: LlamaContext;
  private readonly sequence: LlamaContextSequence;
  private readonly onClosed: () => Promise<void>;
  private readonly createGrammar: (schema: GbnfJsonSchema) => Promise<LlamaGrammar>;
  private readonly createTextGrammar: (gbnf: string) => Promise<LlamaGrammar>;
  // Extraction calls the same schema thousands of times; compiling its grammar once matters.
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private readonly closing = new AbortController();
  private queue: Promise<unknown> = Promise.resolve();
  private closed: Promise<void> | null = null;

  constructor(parts: LlamaClientParts) {
    this.modelId = parts.modelId;
    this.modelPath = parts.modelPath;
    this.architecture = parts.architecture;
    this.settings = parts.settings;
    this.model = parts.model;
    this.context = parts.context;
    this.contextSize = parts.context.contextSize;
    this.sequence = parts.context.getSequence();
    this.onClosed = parts.onClosed;
    this.createGrammar = parts.createGrammar;
    this.createTextGrammar = parts.createTextGrammar;
  }

  countTokens(text: string): number {
    this.assertOpen();
    return this.model.tokenize(text, false).length;
  }

  generate(options: LlmGenerateOptions): Promise<LlmResult> {
    const startedAt = performance.now();
    try {
      this.assertOpen();
      validateGenerateOptions(options);
    } catch (err) {
      return Promise.reject(err);
    }
    const run = this.queue.then(() => this.generateNow(options, startedAt));
    // The queue only orders calls; one failure must not fail the calls behind it.
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(): Promise<void> {
    this.closed ??= this.closeNow();
    return this.closed;
  }

  private async closeNow(): Promise<void> {
    this.closing.abort(new ClauseGraphError("CANCELLED", "The model was closed."));
    await this.queue;
    try {
      await this.context.dispose();
      await this.model.dispose();
    } finally {
      await this.onClosed();
    }
  }

  private assertOpen(): void {
    if (this.closed !== null) throw new ClauseGraphError("INTERNAL", `The model ${this.modelId} is closed.`);
  }

  private textGrammarFor(gbnf: string): Promise<LlamaGrammar> {
    const key = `gbnf:${gbnf}`;
    let grammar = this.grammars.get(key);
    if (grammar === undefined) {
      grammar = this.createTextGrammar(gbnf).catch((err: unknown) => {
        this.grammars.delete(key);
        throw new ClauseGraphError("VALIDATION", `The grammar cannot be compiled: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      });
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  private grammarFor(schema: JsonSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (grammar === undefined) {
      // The engine's JsonSchema is the subset node-llama-cpp accepts; it rejects anything else below.
      grammar = this.createGrammar(schema as GbnfJsonSchema).catch((err: unknown) => {
        this.grammars.delete(key);
        throw new ClauseGraphError("VALIDATION", `The JSON schema cannot be turned into a grammar: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      });
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  /** Tokens of the prompt exactly as the chat template lays it out, up to where the answer starts. */
  private promptTokens(wrapper: ChatWrapper, history: ChatHistoryItem[], prompt: string): number {
    const state = wrapper.generateContextState({
      chatHistory: [...history, { type: "user", text: prompt }, { type: "model", response: [] }],
    });
    return state.contextText.tokenize(this.model.tokenizer).length;
  }

  private async generateNow(options: LlmGenerateOptions, startedAt: number): Promise<LlmResult> {
    const signal = options.signal === undefined ? this.closing.signal : AbortSignal.any([options.signal, this.closing.signal]);
    if (signal.aborted) throw toCancelled(signal.reason);
    const grammar =
      options.jsonSchema !== undefined
        ? await this.grammarFor(options.jsonSchema)
        : options.grammar !== undefined
          ? await this.textGrammarFor(options.grammar)
          : undefined;
    const session = new LlamaChatSession({ contextSequence: this.sequence, autoDisposeSequence: false });
    try {
      // An empty history, not the library's default "helpful assistant" system prompt.
      const history: ChatHistoryItem[] = options.system === undefined || options.system === "" ? [] : [{ type: "system", text: options.system }];
      session.setChatHistory(history);
      const promptTokens = this.promptTokens(session.chatWrapper, history, options.prompt);
      const room = this.contextSize - promptTokens;
      if (room < 1) {
        throw new ClauseGraphError(
          "VALIDATION",
          `The prompt takes ${promptTokens} tokens but the model's context holds ${this.contextSize}: shorten it (use countTokens to fit it).`,
        );
      }
      // Capping at the room left means llama.cpp never shifts the context, which would silently drop
      // the start of the prompt — the system instructions.
      const maxTokens = Math.min(options.maxTokens ?? room, room);
      let firstTokenAt: number | null = null;
      let completionTokens = 0;
      const meta = await session.promptWithMeta(options.prompt, {
        maxTokens,
        temperature: options.temperature ?? 0,
        signal,
        ...(grammar === undefined ? {} : { grammar }),
        onToken: (tokens) => {
          firstTokenAt ??= performance.now();
          completionTokens += tokens.length;
        },
        onTextChunk: (text) => {
          firstTokenAt ??= performance.now();
          options.onToken?.(text);
        },
      });
      if (signal.aborted) throw toCancelled(signal.reason);
      const endedAt = performance.now();
      return {
        text: meta.responseText,
        promptTokens,
        completionTokens,
        firstTokenMs: firstTokenAt === null ? null : Math.round(firstTokenAt - startedAt),
        totalMs: Math.round(endedAt - startedAt),
        stopReason: meta.stopReason === "maxTokens" ? "maxTokens" : "end",
      };
    } catch (err) {
      if (signal.aborted) throw toCancelled(signal.reason, err);
      if (isClauseGraphError(err)) throw err;
      throw new ClauseGraphError("INTERNAL", `Generation failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    } finally {
      session.dispose();
    }
  }
}

function toCancelled(reason: unknown, cause?: unknown): ClauseGraphError {
  if (abortReasonIsClose(reason)) return reason as ClauseGraphError;
  return new ClauseGraphError("CANCELLED", "Generation cancelled.", { cause: cause ?? reason });
}

function validateGenerateOptions(options: LlmGenerateOptions): void {
  if (options.maxTokens !== undefined && (!Number.isInteger(options.maxTokens) || options.maxTokens < 1)) {
    throw new ClauseGraphError("VALIDATION", "maxTokens must be a whole number of at least 1.");
  }
  if (options.temperature !== undefined && !(options.temperature >= 0 && options.temperature <= 2)) {
    throw new ClauseGraphError("VALIDATION", "temperature must be between 0 and 2.");
  }
}
