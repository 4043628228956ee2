// Fetches a recommended GGUF from Hugging Face on a connected machine and pins it. ClauseGraph itself
// never downloads models (the app and the build machines are offline); this is for whoever prepares
// model files or pins the manifest.
//
//   node bin/run-ts.mjs models/fetch-model.ts <id> [--out <dir>] [--revision <commit>]
//
// Writes <out>/<id>/<files.model> (default out: ./models-download), downloading to a .partial file
// that is renamed only when complete. When the manifest pins sha256 the download must match it;
// otherwise the script prints the commit, sha256 and size to record in models/manifest.json
// ("pin on fetch"). Then: clausegraph models import <file>.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { parseArgs } from "node:util";
import { findLlmModel, loadModelManifest } from "../core/embed/model-manifest.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: "string", default: "models-download" }, revision: { type: "string" } },
});
const id = positionals[0];
if (id === undefined) {
  console.error("usage: node bin/run-ts.mjs models/fetch-model.ts <id> [--out <dir>] [--revision <commit>]");
  process.exit(2);
}
const entry = findLlmModel(await loadModelManifest(), id);
if (entry.source.type !== "huggingface") throw new Error(`${id} is not fetched from Hugging Face`);
const remote = entry.source.remoteFiles.model;
if (remote === undefined) throw new Error(`${id} names no remote model file`);
// An explicit revision wins; else the pinned one; else "main", whose commit is printed for pinning.
const revision = values.revision ?? entry.source.revision ?? "main";
const url = `https://huggingface.co/${entry.source.repo}/resolve/${encodeURIComponent(revision)}/${remote.split("/").map(encodeURIComponent).join("/")}`;

const dir = path.resolve(values.out, entry.id);
const target = path.join(dir, entry.files.model);
const partial = `${target}.partial`;
await mkdir(dir, { recursive: true });

/**
 * Follows redirects by hand: the resolve endpoint names the commit it served (X-Repo-Commit, what to
 * pin when "main" was asked for) on its redirect to the file storage, whose response does not.
 */
async function download(start: string): Promise<{ response: Response; servedCommit: string | null }> {
  let current = start;
  let servedCommit: string | null = null;
  for (let hop = 0; hop < 8; hop++) {
    console.error(`GET ${current}`);
    const response = await fetch(current, { redirect: "manual" });
    servedCommit ??= response.headers.get("x-repo-commit");
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      current = new URL(location, current).href;
      continue;
    }
    if (!response.ok || response.body === null) throw new Error(`download failed: HTTP ${response.status} ${response.statusText}`);
    return { response, servedCommit };
  }
  throw new Error("too many redirects");
}

const { response, servedCommit } = await download(url);
const total = Number(response.headers.get("content-length") ?? 0);

const hash = createHash("sha256");
let bytes = 0;
let lastReport = 0;
const tap = new Transform({
  transform(chunk: Buffer, _encoding, callback) {
    hash.update(chunk);
    bytes += chunk.length;
    if (process.stderr.isTTY && Date.now() - lastReport > 500) {
      lastReport = Date.now();
      const pct = total > 0 ? ` ${((100 * bytes) / total).toFixed(1)}%` : "";
      process.stderr.write(`\r${(bytes / 1e6).toFixed(0)} MB${pct}\x1b[K`);
    }
    callback(null, chunk);
  },
});
try {
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), tap, createWriteStream(partial));
} catch (err) {
  await rm(partial, { force: true });
  throw err;
}
if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
const sha256 = hash.digest("hex");

if (entry.sha256 !== null && entry.sha256 !== sha256) {
  await rm(partial, { force: true });
  console.error(`sha256 mismatch for ${entry.id}: got ${sha256}, the manifest pins ${entry.sha256}. Nothing was kept.`);
  process.exit(1);
}
if (entry.sizeBytes !== null && entry.sizeBytes !== bytes) {
  await rm(partial, { force: true });
  console.error(`size mismatch for ${entry.id}: got ${bytes} bytes, the manifest pins ${entry.sizeBytes}. Nothing was kept.`);
  process.exit(1);
}
await rename(partial, target);

console.log(`${target}\n  ${bytes} bytes, sha256 ${sha256}`);
if (entry.sha256 === null || entry.source.revision === null) {
  console.log(`\nTo pin it, set in models/manifest.json for "${entry.id}":`);
  console.log(`  "source.revision": ${JSON.stringify(servedCommit ?? (revision === "main" ? null : revision))}`);
  console.log(`  "sha256": "${sha256}",\n  "sizeBytes": ${bytes}`);
  if (servedCommit === null && revision === "main") console.log("  (the server did not report the commit: look it up on the model page before pinning)");
} else {
  console.log("  verified against the manifest.");
}
console.log(`\nThen: npx clausegraph models import ${JSON.stringify(target)}`);
