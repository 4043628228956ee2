import type { EngineOptions } from "../engine.ts";
import type { Engine } from "../model/engine-types.ts";

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface CliArgs {
  positionals: string[];
  json: boolean;
  db: string;
  k: number;
  /** Whether --k was given (commands with their own default, like compare, use it only then). */
  kGiven?: boolean;
  password: string | undefined;
  /** ingest: how scanned pages are read (auto|always|never) and in which language (eng|ita). */
  ocr?: string | undefined;
  ocrLang?: string | undefined;
  /** A GGUF model for written answers (ask). */
  llm?: string | undefined;
  threads?: number | undefined;
  /** Document ids chosen with --doc (extract). */
  docs?: string[] | undefined;
  /** check --repair: rebuild a damaged library. */
  repair?: boolean | undefined;
  /** aliases --set "A,B" / --add X / --remove X. */
  setAliases?: string | undefined;
  addAliases?: string[] | undefined;
  removeAliases?: string[] | undefined;
  /** ask: caps on the written answer for this call (instead of the saved ones). */
  maxTokens?: number | undefined;
  maxSeconds?: number | undefined;
  /** export: which conversation, or which answer (its answer-log id); the format (md|html) and the output file. */
  conversation?: string | undefined;
  answer?: string | undefined;
  format?: string | undefined;
  out?: string | undefined;
  /** compare --library: A against every other document. */
  library?: boolean | undefined;
  /** compare --all-provisions: recitals, introductions and appendices aligned too. */
  allProvisions?: boolean | undefined;
}

export interface CliContext {
  args: CliArgs;
  io: CliIo;
  openEngine: (extra?: Partial<Pick<EngineOptions, "llm">>) => Promise<Engine>;
}

/** Exit codes: 0 all good, 1 some work failed (details printed), 2 the command line was wrong. */
export type ExitCode = 0 | 1 | 2;

export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
