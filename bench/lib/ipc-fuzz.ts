import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { WebSocket } from "ws";
import { z } from "zod";
import { channelSchema, requestSchemas, resultSchema } from "../../core/contract/contract.ts";
import type { Result } from "../../core/contract/contract.ts";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { createUploadStore } from "../../core/host/upload-store.ts";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { generateFuzzMessages } from "./fuzz-payloads.ts";
import type { FuzzMessage } from "./fuzz-payloads.ts";
import { regulationPdf } from "./trust-fixtures.ts";

// "IPC": random and malformed payloads on every channel of the contract, through the real
// dispatcher (or the web host's WebSocket) in front of a real engine on a throwaway library. Every
// malformed message must come back as {ok:false, error:{code:"VALIDATION"}}; nothing may throw,
// reject unhandled or hang; afterwards the engine still answers and the library is unchanged.

export interface IpcFuzzOptions {
  messages: number;
  seed: number;
  /** "dispatch" (default): straight into createDispatcher; "websocket": JSON frames to the web host. */
  transport?: "dispatch" | "websocket";
  log?: (line: string) => void;
}

export interface IpcFuzzResult {
  messages: number;
  /** Malformed messages answered {ok:false, code:"VALIDATION"}. */
  validationErrors: number;
  /** Throws, unhandled rejections, uncaught exceptions, hangs, or an engine that stopped answering. */
  crashes: number;
  /** A malformed message not answered VALIDATION, a reply not shaped like a Result, an INTERNAL error. */
  unexpected: number;
  /** Messages that happened to be valid after mutation, answered normally (ok or a typed error). */
  validAnswered: number;
  /** stats and documents.list still work afterwards and the library holds what it held before. */
  engineHealthy: boolean;
  /** The first few problems, for the report. */
  problems: string[];
}

const MESSAGE_TIMEOUT_MS = 60_000;
const anyResultSchema = resultSchema(z.unknown());

type Send = (message: FuzzMessage) => Promise<{ reply: unknown; channel: unknown; payload: unknown }>;

/** Whether the contract accepts the message as it arrived (after any wire encoding). */
function isValidRequest(channel: unknown, payload: unknown): boolean {
  const parsedChannel = channelSchema.safeParse(channel);
  if (!parsedChannel.success) return false;
  return requestSchemas[parsedChannel.data].params.safeParse(payload).success;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describeMessage(message: FuzzMessage): string {
  const channel = typeof message.channel === "string" ? message.channel.slice(0, 40) : typeof message.channel;
  return `${channel} (${message.kind})`;
}

/** Encodes a leaf, or returns null for arrays and objects; "" for what JSON drops (undefined, functions). */
function wireLeaf(value: unknown, inArray: boolean): string | null {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return String(value);
    case "bigint":
      return JSON.stringify(value.toString());
    case "undefined":
    case "function":
    case "symbol":
      return inArray ? "null" : "";
    default:
      // Not instanceof: a payload whose "__proto__" key was set to a Date passes instanceof but is no Date.
      return Object.prototype.toString.call(value) === "[object Date]" ? JSON.stringify((value as Date).toISOString()) : null;
  }
}

type WireFrame = { text: string } | { value: unknown; inArray: boolean };

/**
 * JSON for the wire, as any client would encode it (BigInt as a string, NaN as null, undefined keys
 * dropped). Iterative and hand-written because some payloads are thousands of levels deep, and
 * pdf.js's legacy build replaces the global JSON.stringify with a polyfill that recurses through
 * several stack frames per level.
 */
function toWireJson(root: unknown): string {
  const out: string[] = [];
  const stack: WireFrame[] = [{ value: root, inArray: false }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if ("text" in frame) {
      out.push(frame.text);
      continue;
    }
    const leaf = wireLeaf(frame.value, frame.inArray);
    if (leaf !== null) {
      out.push(leaf);
      continue;
    }
    const container = frame.value as object;
    const isArray = Array.isArray(container);
    const entries = isArray
      ? (container as unknown[]).map((item): [string | null, unknown] => [null, item])
      : Object.entries(container).filter(([, item]) => wireLeaf(item, false) !== "");
    out.push(isArray ? "[" : "{");
    stack.push({ text: isArray ? "]" : "}" });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string | null, unknown];
      stack.push({ value: item, inArray: isArray });
      if (key !== null) stack.push({ text: `${JSON.stringify(key)}:` });
      if (i > 0) stack.push({ text: "," });
    }
  }
  return out.join("");
}

async function openWebSocket(host: WebHost): Promise<WebSocket> {
  const ws = new WebSocket(`${host.origin.replace("http:", "ws:")}/api`, {
    origin: host.origin,
    headers: { Cookie: host.cookie },
    maxPayload: 256 * 1024 * 1024,
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return ws;
}

/**
 * The host closes a connection whose message is over MAX_MESSAGE_BYTES (1009, nothing parsed): that
 * refusal stands in for the VALIDATION reply, and the next message goes over a new connection.
 */
const TOO_BIG_REPLY = { id: null, result: { ok: false, error: { code: "VALIDATION", message: "connection closed 1009: message over the host's size limit" } } };

/** One request at a time over a WebSocket, so replies with id null still match their message. */
function webSocketSender(host: WebHost, first: WebSocket): { send: Send; sendRaw: (data: string | Buffer) => Promise<unknown>; close(): void } {
  let waiting: ((value: unknown) => void) | null = null;
  let ws = first;
  const attach = (socket: WebSocket): void => {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as unknown;
      // Progress events of imports a still-valid message started are pushed to every client: not replies.
      if (typeof message === "object" && message !== null && "event" in message) return;
      const resolve = waiting;
      waiting = null;
      resolve?.(message);
    });
    socket.on("error", () => undefined);
    socket.on("close", (code) => {
      if (socket !== ws) return;
      const resolve = waiting;
      waiting = null;
      resolve?.(code === 1009 ? TOO_BIG_REPLY : { closed: code });
    });
  };
  attach(first);
  const sendRaw = async (data: string | Buffer): Promise<unknown> => {
    if (ws.readyState !== WebSocket.OPEN) {
      ws = await openWebSocket(host);
      attach(ws);
    }
    const socket = ws;
    return new Promise((resolve) => {
      waiting = resolve;
      socket.send(data, { binary: typeof data !== "string" });
    });
  };
  let nextId = 0;
  const send: Send = async (message) => {
    const id = nextId++;
    const text = toWireJson({ id, channel: message.channel, payload: message.payload });
    // What the host actually receives: undefined keys vanish, NaN becomes null, and so on.
    const received = JSON.parse(text) as { channel?: unknown; payload?: unknown };
    const wire: unknown = await sendRaw(text);
    const parsed = z.object({ id: z.unknown(), result: z.unknown() }).safeParse(wire);
    return { reply: parsed.success ? parsed.data.result : wire, channel: received.channel, payload: received.payload };
  };
  return { send, sendRaw, close: () => ws.close() };
}

/** Malformed envelopes only the WebSocket can carry: each must be answered VALIDATION. */
const RAW_FRAMES: (string | Buffer)[] = [
  "not json",
  "{",
  "null",
  "[]",
  '"search"',
  "{}",
  '{"id":1}',
  '{"id":{"nested":true},"channel":"stats","payload":{}}',
  `{"id":"${"x".repeat(65)}","channel":"stats","payload":{}}`,
  '{"id":1,"channel":"stats","payload":{},"extra":true}',
  '{"id":1.5,"channel":"stats","payload":{}}',
  '{"__proto__":{"id":1},"channel":"stats","payload":{}}',
  Buffer.from([0, 1, 2, 3, 255]),
];

interface Library {
  documents: number;
  sections: number;
}

async function library(engine: Engine): Promise<Library> {
  const stats = await engine.stats();
  return { documents: stats.documents, sections: stats.sections };
}

export async function runIpcFuzz(opts: IpcFuzzOptions): Promise<IpcFuzzResult> {
  const log = opts.log ?? (() => {});
  const transport = opts.transport ?? "dispatch";
  const tmp = await mkdtemp(path.join(os.tmpdir(), "cg-fuzz-"));
  const result: IpcFuzzResult = { messages: 0, validationErrors: 0, crashes: 0, unexpected: 0, validAnswered: 0, engineHealthy: false, problems: [] };
  const problem = (text: string): void => {
    if (result.problems.length < 20) result.problems.push(text);
  };
  const onUnhandled = (err: unknown): void => {
    result.crashes += 1;
    problem(`unhandled: ${err instanceof Error ? err.message : String(err)}`);
  };
  process.on("unhandledRejection", onUnhandled);
  process.on("uncaughtException", onUnhandled);
  // Embeddings are not what is under test here: without them the library opens in a second.
  const engine = await createEngine({ dataDir: path.join(tmp, "data"), llm: null, embedder: null });
  let closeTransport = async (): Promise<void> => {};
  try {
    const fixture = path.join(tmp, "regulation.pdf");
    await writeFile(fixture, await regulationPdf());
    const [imported] = await engine.importFiles([fixture]);
    if (imported?.status !== "ok") throw new Error(`fuzz fixture did not import: ${JSON.stringify(imported)}`);
    const before = await library(engine);

    let send: Send;
    let sendRaw: ((data: string | Buffer) => Promise<unknown>) | null = null;
    if (transport === "dispatch") {
      const dispatcher = createDispatcher({ engine, emit: () => {}, uploads: createUploadStore(engine.dataDir) });
      send = async (message) => ({ reply: await dispatcher.dispatch(message.channel, message.payload), channel: message.channel, payload: message.payload });
      closeTransport = async () => dispatcher.cancelAll();
    } else {
      const staticDir = path.join(tmp, "static");
      await writeFile(path.join(tmp, "placeholder"), "");
      const host = await startWebHost({ dataDir: engine.dataDir, port: 0, staticDir, engine });
      const sender = webSocketSender(host, await openWebSocket(host));
      ({ send, sendRaw } = sender);
      closeTransport = async () => {
        sender.close();
        await host.close();
      };
    }

    const messages = generateFuzzMessages(opts.messages, opts.seed);
    for (const [index, message] of messages.entries()) {
      result.messages += 1;
      let outcome: Awaited<ReturnType<Send>>;
      try {
        outcome = await withTimeout(send(message), MESSAGE_TIMEOUT_MS, describeMessage(message));
      } catch (err) {
        result.crashes += 1;
        problem(`#${index} ${describeMessage(message)} threw: ${err instanceof Error ? (err.stack ?? err.message).slice(0, 600) : String(err)}`);
        continue;
      }
      const reply = anyResultSchema.safeParse(outcome.reply);
      if (!reply.success) {
        result.unexpected += 1;
        problem(`#${index} ${describeMessage(message)}: reply is not a Result: ${toWireJson(outcome.reply).slice(0, 200)}`);
        continue;
      }
      const answer: Result<unknown> = reply.data;
      if (isValidRequest(outcome.channel, outcome.payload)) {
        // Valid after all: any normal answer will do, but never an internal failure.
        if (!answer.ok && answer.error.code === "INTERNAL") {
          result.unexpected += 1;
          problem(`#${index} ${describeMessage(message)}: valid request failed INTERNAL: ${answer.error.message}`);
        } else {
          result.validAnswered += 1;
        }
      } else if (!answer.ok && answer.error.code === "VALIDATION") {
        result.validationErrors += 1;
      } else {
        result.unexpected += 1;
        problem(`#${index} ${describeMessage(message)}: malformed request answered ${toWireJson(answer).slice(0, 200)}`);
      }
      if ((index + 1) % 500 === 0) log(`ipc fuzz (${transport}): ${index + 1}/${messages.length}`);
    }

    if (sendRaw !== null) {
      for (const frame of RAW_FRAMES) {
        result.messages += 1;
        const wire = await withTimeout(sendRaw(frame), MESSAGE_TIMEOUT_MS, "raw frame").catch((err: unknown) => err);
        const parsed = z.object({ id: z.null(), result: anyResultSchema }).safeParse(wire);
        if (parsed.success && !parsed.data.result.ok && parsed.data.result.error.code === "VALIDATION") result.validationErrors += 1;
        else {
          result.unexpected += 1;
          problem(`raw frame ${String(frame).slice(0, 60)} answered ${toWireJson(wire).slice(0, 200)}`);
        }
      }
    }

    // The engine keeps running — valid requests through the same transport still work — and the
    // library is what it was.
    try {
      const stats = await send({ channel: "stats", payload: {}, kind: "valid after fuzz" });
      const listed = await send({ channel: "documents.list", payload: {}, kind: "valid after fuzz" });
      const answered = [stats.reply, listed.reply].every((reply) => anyResultSchema.safeParse(reply).data?.ok === true);
      if (!answered) problem(`valid requests failed after the fuzz: ${toWireJson([stats.reply, listed.reply]).slice(0, 300)}`);
      const after = await library(engine);
      const documents = await engine.listDocuments();
      result.engineHealthy = answered && after.documents === before.documents && after.sections === before.sections && documents.length === before.documents;
      if (!result.engineHealthy) problem(`library changed: before ${toWireJson(before)}, after ${toWireJson(after)}`);
    } catch (err) {
      result.crashes += 1;
      problem(`engine stopped answering: ${err instanceof Error ? err.message : String(err)}`);
    }
    return result;
  } finally {
    await closeTransport();
    await engine.close();
    process.off("unhandledRejection", onUnhandled);
    process.off("uncaughtException", onUnhandled);
    await rm(tmp, { recursive: true, force: true });
  }
}
