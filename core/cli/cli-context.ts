import type { EngineOptions } from "../engine.ts";
import type { Engine } from "../engine-types.ts";

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface CliArgs {
  positionals: string[];
  json: boolean;
  db: string;
  k: number;
  password: string | undefined;
  /** A GGUF model for written answers (ask). */
  llm?: string | undefined;
  threads?: number | undefined;
  /** Document ids chosen with --doc (extract). */
  docs?: string[] | undefined;
  /** check --repair: rebuild a damaged library. */
  repair?: boolean | undefined;
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
