import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine } from "../../../core/engine.ts";
import type { Embedder } from "../../../core/model/embedder.ts";
import { ROOT } from "./renderer-build.ts";

// A library of many small, distinct text regulations, for the UI at size: each is a title and two
// short articles, its own words so its hash differs. Some are made to be found by the filter: every
// hundredth is a French "Règlement" (accents), one is DORA by its official title (the instrument
// registry names it), one has a very long name (ellipsis), one alone mentions a quokka (search).
//
// The engine stores a document in its own transaction followed by a checkpoint, so importing
// hundreds takes minutes on a small machine. The library is therefore imported once, by the real
// engine, into a cache under the system temp dir, and each run works on a copy of it. The cache is
// named by a fingerprint of everything that shapes it (this generator, the embedder, every file of
// core/, the Kuzu version): any change to the engine imports it afresh.

const TOPICS = [
  "payment services",
  "outsourcing",
  "incident reporting",
  "market abuse",
  "credit risk",
  "liquidity",
  "data protection",
  "money laundering",
  "governance",
  "cloud services",
];

export const SCALE = {
  /** Titled "Règlement …": found by "reglement". */
  french: (i: number): boolean => i % 100 === 0,
  /** Titled as Regulation (EU) 2022/2554, which the registry knows as DORA. */
  dora: 250,
  /** A file name and title far wider than the pane. */
  longName: 7,
  /** The only document with the word "quokka". */
  quokka: 417,
} as const;

export interface ScaleDocument {
  index: number;
  file: string;
  fileName: string;
  title: string;
}

function fileNameOf(i: number, id: string): string {
  return i === SCALE.longName ? `supervisory-handbook-on-operational-resilience-testing-of-critical-third-party-providers-${id}.txt` : `rulebook-${id}.txt`;
}

function titleOf(i: number, id: string, topic: string): string {
  if (i === SCALE.dora)
    return "REGULATION (EU) 2022/2554 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL on digital operational resilience for the financial sector";
  if (SCALE.french(i)) return `Règlement ${id} relatif à la sécurité des opérations de ${topic}`;
  if (i === SCALE.longName) return `Supervisory handbook ${id} on the operational resilience testing of critical third-party providers to financial entities`;
  return `Rulebook ${id} on ${topic}`;
}

/** Writes `count` regulations into `dir`, numbered from 1; returns them in that order. */
export async function writeScaleLibrary(dir: string, count: number): Promise<ScaleDocument[]> {
  const docs: ScaleDocument[] = [];
  for (let i = 1; i <= count; i++) {
    const id = String(i).padStart(3, "0");
    const topic = TOPICS[i % TOPICS.length] ?? "governance";
    const fileName = fileNameOf(i, id);
    const title = titleOf(i, id, topic);
    const keep = i === SCALE.quokka ? "Firms shall keep a quokka register of every such event." : `Firms shall keep a register ${id} of every such event.`;
    const text = `${title}

Article 1
Scope
This rulebook ${id} applies to ${topic} firms of class ${i}.

Article 2
Reporting
Firms shall report ${topic} events of class ${i} within ${(i % 48) + 1} hours. ${keep}
`;
    const file = path.join(dir, fileName);
    await writeFile(file, text);
    docs.push({ index: i, file, fileName, title });
  }
  return docs;
}

const CACHE_ROOT = path.join(os.tmpdir(), "clausegraph-e2e-cache");

async function fingerprint(count: number, embedderId: string): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`${count}\n${embedderId}\n`);
  const files = [
    fileURLToPath(import.meta.url),
    path.join(ROOT, "test/helpers/hash-embedder.ts"),
    path.join(ROOT, "node_modules/kuzu/package.json"),
    ...(await readdir(path.join(ROOT, "core"), { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort(),
  ];
  for (const file of files) {
    hash.update(path.relative(ROOT, file));
    hash.update(await readFile(file));
  }
  return hash.digest("hex").slice(0, 16);
}

export interface ScaleLibrary {
  documents: ScaleDocument[];
  /** The engine imported it in this run (no cached copy matched). */
  imported: boolean;
}

/**
 * Puts a library of `count` documents, imported by the engine with this embedder, into `dataDir`
 * (which must not exist yet): copied from the cache, after importing it there when missing.
 */
export async function copyScaleLibrary(dataDir: string, count: number, embedder: Embedder): Promise<ScaleLibrary> {
  const name = `scale-${count}-`;
  const cache = path.join(CACHE_ROOT, `${name}${await fingerprint(count, embedder.id)}`);
  const manifest = path.join(cache, "documents.json");
  const imported = !existsSync(manifest);
  if (imported) {
    // Libraries of older engines are of no further use.
    await mkdir(CACHE_ROOT, { recursive: true });
    for (const old of await readdir(CACHE_ROOT)) if (old.startsWith(name)) await rm(path.join(CACHE_ROOT, old), { recursive: true, force: true });
    await mkdir(path.join(cache, "sources"), { recursive: true });
    const documents = await writeScaleLibrary(path.join(cache, "sources"), count);
    const engine = await createEngine({ dataDir: path.join(cache, "data"), embedder, llm: null });
    try {
      const results = await engine.importFiles(documents.map((d) => d.file));
      const failed = results.filter((r) => r.status !== "ok");
      if (failed.length > 0) throw new Error(`${failed.length} of ${count} files were not imported, e.g. ${JSON.stringify(failed[0])}`);
    } finally {
      await engine.close();
    }
    // Written last: a cache without it is an interrupted import, done again next time.
    await writeFile(manifest, JSON.stringify(documents));
  }
  await cp(path.join(cache, "data"), dataDir, { recursive: true });
  return { documents: JSON.parse(await readFile(manifest, "utf8")) as ScaleDocument[], imported };
}
