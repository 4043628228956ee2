import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { createRandom } from "./fuzz-payloads.ts";

// Random sequences of imports, deletes, re-imports, index rebuilds and restarts over generated
// documents of varied shapes (with and without obligations, citations, definitions, chapters; one
// to five articles), checking after every step that each document whose import said "ok" is
// listed, found by its own word and deletable, that search finds only listed documents and that
// nothing is stored for a document that is not listed. Kuzu 0.11.3 lost whole documents at
// commit depending on how many tables a document wrote (core/store/kuzu/hnsw-commit-guard.ts); these
// shapes cover those table counts. Seeded, so a failure replays. Used by
// test/integration/engine-import-property.test.ts and `npm run bench:robustness -- --parts sequences`.

export interface GeneratedDocument {
  name: string;
  /** A made-up word only this document contains: searching it must find this document and no other. */
  marker: string;
  text: string;
}

const LETTERS = "bcdfghjklmnpqrstvwxz";

function word(next: () => number, length: number): string {
  let w = "";
  for (let i = 0; i < length; i++) w += LETTERS[Math.floor(next() * LETTERS.length)] ?? "b";
  return w;
}

export function generateDocument(next: () => number, index: number): GeneratedDocument {
  const marker = `${word(next, 4)}o${word(next, 4)}a${word(next, 3)}`;
  const articles = 1 + Math.floor(next() * 5);
  const obligations = next() < 0.6;
  const citations = next() < 0.5;
  const definitions = next() < 0.4;
  const chapters = next() < 0.4;
  const lines: string[] = [`Regulation ${index} on the ${marker} register`];
  for (let a = 1; a <= articles; a++) {
    if (chapters && (a === 1 || a === 3)) lines.push(`CHAPTER ${a === 1 ? "I" : "II"}`, a === 1 ? "General provisions" : "Obligations");
    lines.push(`Article ${a}`, a === 1 ? "Subject matter" : `Rules number ${a}`);
    const paragraphs = 1 + Math.floor(next() * 3);
    for (let p = 1; p <= paragraphs; p++) {
      const parts: string[] = [];
      if (a === 1 && p === 1) parts.push(`This Regulation lays down rules on the ${marker} register.`);
      if (definitions && a === 1 && p === 1) parts.push(`'Keeper' means the person who holds the ${marker} register.`);
      if (obligations) parts.push(p % 2 === 1 ? "The keeper shall keep records for five years." : "The authority shall notify the keeper within 72 hours.");
      if (citations && a > 1) parts.push(`See Article ${a - 1} for details.`);
      if (parts.length === 0) parts.push("This paragraph describes the scope of the register in general terms.");
      lines.push(`${p}. ${parts.join(" ")}`);
    }
  }
  return { name: `doc-${index}.txt`, marker, text: `${lines.join("\n")}\n` };
}

export interface SequenceOptions {
  steps: number;
  seed: number;
  documents?: number;
  /** Where the library lives (a temporary folder by default, removed afterwards). */
  dir?: string;
  log?: (line: string) => void;
}

export interface SequenceReport {
  steps: number;
  imports: number;
  deletes: number;
  reopens: number;
  /** Invariants broken, as readable lines naming the step (empty when every step held). */
  violations: string[];
}

type Op = "import" | "delete" | "search" | "reopen";

export async function runImportSequences(options: SequenceOptions): Promise<SequenceReport> {
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), "cg-sequences-")));
  const report: SequenceReport = { steps: 0, imports: 0, deletes: 0, reopens: 0, violations: [] };
  const violate = (line: string): void => {
    report.violations.push(line);
    options.log?.(`VIOLATION ${line}`);
  };
  const docs: GeneratedDocument[] = [];
  const shapes = createRandom(options.seed);
  for (let i = 0; i < (options.documents ?? 10); i++) {
    const doc = generateDocument(shapes, i);
    docs.push(doc);
    await writeFile(path.join(dir, doc.name), doc.text);
  }
  const open = (): Promise<Engine> => createEngine({ dataDir: path.join(dir, "data"), modelRoot: path.join(dir, "models") });
  /** File name → document id, for every document that should be in the library. */
  const present = new Map<string, string>();
  let engine = await open();

  async function check(step: string): Promise<void> {
    const listed = new Map((await engine.listDocuments()).map((d) => [d.fileName, d.id]));
    for (const [name, id] of present) if (listed.get(name) !== id) violate(`${step}: ${name} (${id}) imported "ok" but not listed`);
    for (const [name] of listed) if (!present.has(name)) violate(`${step}: ${name} listed but not imported`);
    for (const d of (await engine.checkLibrary()).damaged) violate(`${step}: damaged: ${d.message}`);
    const stats = await engine.stats();
    if (stats.embeddedSections !== stats.sections) violate(`${step}: ${stats.sections} sections but ${stats.embeddedSections} vectors`);
    const ids = new Set(present.values());
    for (const doc of docs) {
      const { results } = await engine.search(doc.marker, { k: 5 });
      const id = present.get(doc.name);
      if (id !== undefined && results[0]?.documentId !== id) violate(`${step}: ${doc.name} not found by its word`);
      for (const r of results) if (!ids.has(r.documentId)) violate(`${step}: search found ${r.documentId}, which is not listed`);
    }
  }

  const ops = createRandom(options.seed * 101 + 7);
  try {
    for (let i = 0; i < options.steps; i++) {
      const roll = ops();
      const op: Op = roll < 0.5 ? "import" : roll < 0.8 ? "delete" : roll < 0.93 ? "search" : "reopen";
      const doc = docs[Math.floor(ops() * docs.length)];
      if (!doc) continue;
      const step = `step ${i}: ${op} ${doc.name}`;
      if (op === "import") {
        const [result] = await engine.importFiles([path.join(dir, doc.name)]);
        const expected = present.has(doc.name) ? "skipped" : "ok";
        if (result?.status !== expected) violate(`${step}: ${result?.status ?? "no result"} instead of ${expected} ${JSON.stringify(result?.error ?? "")}`);
        if (result?.status === "ok" || result?.status === "skipped") present.set(doc.name, result.documentId ?? "");
        report.imports++;
      } else if (op === "delete") {
        const outcome = await engine.deleteDocument(doc.name);
        if (outcome.deleted !== present.has(doc.name)) violate(`${step}: deleted ${outcome.deleted}, expected ${present.has(doc.name)}`);
        present.delete(doc.name);
        report.deletes++;
      } else if (op === "reopen") {
        await engine.close();
        engine = await open();
        report.reopens++;
      }
      await check(step);
      report.steps++;
      options.log?.(`${step}: ${present.size} documents listed`);
    }
    for (const name of [...present.keys()]) {
      if (!(await engine.deleteDocument(name)).deleted) violate(`final delete of ${name} failed`);
      present.delete(name);
    }
    await check("after deleting everything");
    const stats = await engine.stats();
    const left = Object.entries(stats).filter(([key, value]) => key !== "embeddingModel" && value !== 0);
    if (left.length > 0) violate(`after deleting everything: ${left.map(([k, v]) => `${k} ${String(v)}`).join(", ")} remain`);
  } finally {
    await engine.close();
    if (options.dir === undefined) await rm(dir, { recursive: true, force: true });
  }
  return report;
}
