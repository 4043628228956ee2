import { CHANNELS, LIMITS, requestSchemas } from "../../core/contract/contract.ts";
import type { Channel } from "../../core/contract/contract.ts";

// Seeded generator of hostile request messages for the IPC fuzz (bench/lib/ipc-fuzz.ts). Each
// message is a (channel, payload) pair as a compromised renderer or a random web page could send it:
// wrong types, missing and extra keys, prototype keys, huge strings, deep nesting, NaN/Infinity,
// arrays where objects belong, unknown channels, null/undefined. Channels come from the contract
// itself, so a channel added later is fuzzed without touching this file.

/** mulberry32: tiny, fast and good enough to make every run with the same seed identical. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzMessage {
  channel: unknown;
  payload: unknown;
  /** How the message was made, for failure reports. */
  kind: string;
}

/**
 * A valid payload per known channel, pointing at nothing that exists: if a mutation happens to stay
 * valid, the engine does harmless work (NOT_FOUND, FILE_NOT_FOUND, UNSUPPORTED_TYPE) and the
 * library under test is never changed.
 */
const BASES: Partial<Record<Channel, Record<string, unknown>>> = {
  "documents.import": { files: ["/nonexistent/fuzz/a.pdf"], password: "pw" },
  "documents.upload": { files: [{ name: "fuzz.exe", bytesBase64: "aGVsbG8=" }] },
  "documents.list": {},
  "documents.delete": { id: "fuzz-no-such-document" },
  "documents.aliases": { id: "fuzz-no-such-document", aliases: ["fuzz"] },
  search: { query: "personal data", k: 5 },
  ask: { question: "who must notify a breach?", k: 3, askId: "fuzz-ask" },
  "sections.get": { id: "fuzz-no-such-section" },
  "sections.list": { documentId: "fuzz-no-such-document" },
  stats: {},
  "graph.neighbors": { nodeId: "section:fuzz:none" },
  "documents.source": { id: "fuzz-no-such-document" },
  "jobs.cancel": { jobId: "fuzz-job" },
  "triplets.extract": { documentIds: ["fuzz-no-such-document"], jobId: "fuzz-extract" },
  "models.list": {},
  "models.select": { modelId: "fuzz-no-such-model", threads: 1 },
  "models.import": { path: "/nonexistent/fuzz/model.gguf" },
  "models.limits": {},
  "answers.log": { limit: 5 },
  "conversations.create": {},
  "conversations.list": { query: "fuzz" },
  "conversations.get": { id: "fuzz-no-such-conversation" },
  "conversations.delete": { id: "fuzz-no-such-conversation" },
  "export.answer": { logId: "fuzz-no-such-answer", format: "md" },
  "export.conversation": { id: "fuzz-no-such-conversation", format: "html" },
};

/** The keys a channel's params schema declares (zod object shape), whatever the channel. */
function schemaKeys(channel: Channel): string[] {
  const schema: unknown = requestSchemas[channel].params;
  if (typeof schema === "object" && schema !== null && "shape" in schema) {
    const shape: unknown = schema.shape;
    if (typeof shape === "object" && shape !== null) return Object.keys(shape);
  }
  return [];
}

export function basePayload(channel: Channel): Record<string, unknown> {
  return structuredClone(BASES[channel] ?? {});
}

function pick<T>(random: () => number, items: readonly T[]): T {
  if (items.length === 0) throw new Error("pick from an empty list");
  // Some lists hold undefined on purpose, so the index is checked rather than the item.
  return items[Math.floor(random() * items.length)] as T;
}

function deepNest(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

const HUGE_LENGTHS = [LIMITS.id + 1, LIMITS.query + 1, LIMITS.path + 1, 1024 * 1024];

function weirdString(random: () => number): string {
  return pick(random, [
    "",
    " ",
    "\0",
    "\u0000\u0001\u001f",
    "\ud800",
    "\udfff\ud800",
    "🙂".repeat(50),
    "' OR 1=1 --",
    "'}) MATCH (n) DETACH DELETE n //",
    "$param",
    "../../../../etc/passwd",
    "C:\\Windows\\System32",
    "__proto__",
    "constructor",
    "<script>alert(1)</script>",
    "%00%2e%2e",
    "x".repeat(pick(random, HUGE_LENGTHS)),
  ]);
}

/** A value of some shape: most of them wrong wherever they land. */
function weirdValue(random: () => number, depth = 0): unknown {
  const choice = Math.floor(random() * 22);
  switch (choice) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return Number.NaN;
    case 3:
      return pick(random, [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    case 4:
      return pick(random, [0, -0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308, Number.MIN_VALUE]);
    case 5:
      return pick(random, [true, false]);
    case 6:
      return weirdString(random);
    case 7:
      return [];
    case 8:
      return {};
    case 9:
      return deepNest(pick(random, [50, 500, 2000]), "leaf", random() < 0.5);
    case 10:
      return JSON.parse('{"__proto__": {"polluted": true, "ok": true}}') as unknown;
    case 11:
      return { constructor: { prototype: { polluted: true } } };
    case 12:
      return Array.from({ length: pick(random, [3, 1000, 10_001]) }, (_, i) => i);
    case 13:
      return depth < 2 ? [weirdValue(random, depth + 1), weirdValue(random, depth + 1)] : "nested";
    case 14:
      return depth < 2 ? { [weirdString(random).slice(0, 40)]: weirdValue(random, depth + 1) } : 1;
    case 15:
      return 10n;
    case 16:
      return new Date(0);
    case 17:
      return "12";
    case 18:
      return Array.from({ length: 600 }, () => "/tmp/x.pdf");
    case 19:
      return { length: 1, 0: "a" };
    case 20:
      return new Uint8Array(8);
    default:
      return weirdString(random);
  }
}

function unknownChannel(random: () => number): unknown {
  return pick(random, [
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "SEARCH",
    " search",
    "search ",
    "documents.list\0",
    "documents",
    "documents.import.extra",
    "shell.openExternal",
    "fs.readFile",
    "",
    "x".repeat(10_000),
    42,
    null,
    undefined,
    true,
    {},
    [],
    ["search"],
    { channel: "search" },
    Number.NaN,
  ]);
}

/** One message derived from a known channel's valid payload by a random mutation. */
function mutate(random: () => number, channel: Channel): FuzzMessage {
  const base = basePayload(channel);
  const keys = [...new Set([...Object.keys(base), ...schemaKeys(channel)])];
  const mutation = Math.floor(random() * 10);
  switch (mutation) {
    case 0:
      return { channel, payload: weirdValue(random), kind: "payload replaced by a wrong value" };
    case 1: {
      if (keys.length === 0) return { channel, payload: { unexpected: weirdValue(random) }, kind: "extra key" };
      const key = pick(random, keys);
      const payload = { ...base };
      delete payload[key];
      return { channel, payload, kind: `missing ${key}` };
    }
    case 2: {
      const key = pick(random, ["unexpected", "__proto__", "constructor", "prototype", "toString", "channel", "then", weirdString(random).slice(0, 64)]);
      // JSON.parse makes `__proto__` an own key, as it arrives over the wire.
      const payload = JSON.parse(
        JSON.stringify({ ...base, [key === "__proto__" ? "__proto_placeholder__" : key]: 1 }).replace("__proto_placeholder__", "__proto__"),
      ) as Record<string, unknown>;
      return { channel, payload, kind: `extra key ${key.slice(0, 20)}` };
    }
    case 3:
    case 4: {
      if (keys.length === 0) return { channel, payload: [base], kind: "array for object" };
      const key = pick(random, keys);
      return { channel, payload: { ...base, [key]: weirdValue(random) }, kind: `wrong value for ${key}` };
    }
    case 5:
      return { channel, payload: pick(random, [[base], Object.values(base), [], [[]]]), kind: "array for object" };
    case 6:
      return {
        channel,
        payload: pick(random, [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, "", 0, false]),
        kind: "null/undefined/primitive payload",
      };
    case 7: {
      if (keys.length === 0) return { channel, payload: deepNest(1000, base, false), kind: "deep nesting" };
      const key = pick(random, keys);
      return {
        channel,
        payload: { ...base, [key]: deepNest(pick(random, [100, 1000, 3000]), weirdString(random), random() < 0.5) },
        kind: `deep nesting in ${key}`,
      };
    }
    case 8: {
      if (keys.length === 0) return { channel, payload: { huge: "x".repeat(1024 * 1024) }, kind: "huge extra string" };
      const key = pick(random, keys);
      return { channel, payload: { ...base, [key]: "x".repeat(pick(random, HUGE_LENGTHS)) }, kind: `huge string for ${key}` };
    }
    default: {
      // Several things wrong at once.
      const payload: Record<string, unknown> = { ...base };
      for (const key of keys) if (random() < 0.6) payload[key] = weirdValue(random);
      payload[weirdString(random).slice(0, 30) || "k"] = weirdValue(random);
      return { channel, payload, kind: "several keys wrong" };
    }
  }
}

/** `count` messages, reproducible from `seed`; every contract channel appears, plus unknown ones. */
export function generateFuzzMessages(count: number, seed: number): FuzzMessage[] {
  const random = createRandom(seed);
  const messages: FuzzMessage[] = [];
  for (let i = 0; i < count; i++) {
    // Round-robin first, so even a short run covers every channel.
    const first = CHANNELS[i];
    if (first !== undefined) {
      messages.push(mutate(random, first));
    } else if (random() < 0.1) {
      messages.push({ channel: unknownChannel(random), payload: random() < 0.5 ? {} : weirdValue(random), kind: "unknown channel" });
    } else {
      messages.push(mutate(random, pick(random, CHANNELS)));
    }
  }
  return messages;
}
