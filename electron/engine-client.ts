import { utilityProcess } from "electron";
import type { UtilityProcess } from "electron";
import { LIMITS, wireEventSchema, wireResponseSchema } from "../core/contract/contract.ts";
import type { Result, WireEvent } from "../core/contract/contract.ts";
import { createPathGrants, grantMessageSchema } from "./path-grants.ts";
import type { GrantMessage } from "./path-grants.ts";

// Main's handle on the engine utility process: forwards requests, matches responses by id, and
// restarts the process on the next request if it died (a crash must not need an app restart).

export interface EngineClient {
  invoke(channel: unknown, payload: unknown): Promise<Result<unknown>>;
  /** Lets the engine import these paths (files the user chose); kept and re-sent if the engine restarts. */
  grantPaths(paths: string[]): void;
  /** Asks the engine to close its database, then waits (bounded) for it to exit. */
  shutdown(timeoutMs: number): Promise<void>;
}

export interface EngineClientOptions {
  entry: string;
  dataDir: string;
  onEvent(event: WireEvent): void;
  log(message: string): void;
}

const engineStopped: Result<never> = {
  ok: false,
  error: { code: "INTERNAL", message: "The ClauseGraph engine stopped unexpectedly; try again" },
};

export function createEngineClient(options: EngineClientOptions): EngineClient {
  let child: UtilityProcess | null = null;
  let nextId = 1;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const grants = createPathGrants();
  const grantMessage = (paths: string[]): GrantMessage | null => {
    const parsed = grantMessageSchema.safeParse({ control: "grant", paths });
    return parsed.success ? parsed.data : null;
  };

  const start = (): UtilityProcess => {
    const proc = utilityProcess.fork(options.entry, ["--data-dir", options.dataDir], {
      serviceName: "ClauseGraph engine",
      stdio: "inherit",
      // Two glibc malloc arenas: Kuzu's and onnxruntime's threads otherwise spread over many whose
      // fragments are kept, and the engine's memory grows over a long session (docs/crash-safety.md).
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
    });
    // A restarted engine must still accept the files the user chose before; sent before any request.
    const granted = grants.list();
    for (let i = 0; i < granted.length; i += LIMITS.filesPerImport) {
      const message = grantMessage(granted.slice(i, i + LIMITS.filesPerImport));
      if (message !== null) proc.postMessage(message);
    }
    proc.on("message", (message: unknown) => {
      const response = wireResponseSchema.safeParse(message);
      if (response.success && typeof response.data.id === "number") {
        const resolve = pending.get(response.data.id);
        pending.delete(response.data.id);
        // The renderer-side API validates the result's shape; main only routes it.
        resolve?.(response.data.result as Result<unknown>);
        return;
      }
      const event = wireEventSchema.safeParse(message);
      if (event.success) options.onEvent(event.data);
    });
    proc.on("exit", (code) => {
      options.log(`engine exited with code ${code}`);
      if (child === proc) child = null;
      for (const resolve of pending.values()) resolve(engineStopped);
      pending.clear();
    });
    return proc;
  };

  return {
    grantPaths(paths) {
      const message = grantMessage(paths);
      if (message === null) return;
      grants.grant(message.paths);
      child?.postMessage(message);
    },
    invoke(channel, payload) {
      child ??= start();
      const id = nextId++;
      const proc = child;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        proc.postMessage({ id, channel, payload });
      });
    },
    async shutdown(timeoutMs) {
      const proc = child;
      if (proc === null) return;
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      proc.postMessage({ control: "shutdown" });
      const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs));
      if ((await Promise.race([exited, timer])) === "timeout") proc.kill();
    },
  };
}
