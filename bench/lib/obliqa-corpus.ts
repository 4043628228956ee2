// Reads the ObliQA passage corpus (StructuredRegulatoryDocuments.zip: one JSON list of passages
// per ADGM document) and the question files of ObliQA and XRefRAG-ADGM.
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

export interface Passage {
  /** The upstream UUIDs (`ID`, which XRefRAG uses): more than one where a key was repeated. */
  uids: string[];
  documentId: string;
  passageId: string;
  text: string;
}

export interface Question {
  id: string;
  text: string;
  /** Gold passage keys (`documentId|passageId`). */
  gold: string[];
  /** XRefRAG only: the source and target passage keys. */
  source?: string;
  target?: string;
}

const passageSchema = z.object({
  ID: z.string(),
  DocumentID: z.union([z.string(), z.number()]),
  PassageID: z.string(),
  Passage: z.string(),
});

const obliqaSchema = z.array(
  z.object({
    QuestionID: z.string(),
    Question: z.string(),
    Passages: z.array(z.object({ DocumentID: z.union([z.string(), z.number()]), PassageID: z.string() })),
  }),
);

const xrefSchema = z.object({
  item_id: z.string(),
  question: z.string(),
  source_passage_id: z.string(),
  target_passage_id: z.string(),
});

/** The qrels key of a passage: ObliQA's gold names passages by document and passage id. */
export function passageKey(documentId: string | number, passageId: string): string {
  return `${String(documentId)}|${passageId}`;
}

function unzipTo(zipFile: string, dir: string): void {
  try {
    execFileSync("unzip", ["-q", "-o", zipFile, "-d", dir], { stdio: "ignore" });
  } catch {
    // No `unzip` on this machine: Python's standard library can do it.
    execFileSync("python3", ["-m", "zipfile", "-e", zipFile, dir], { stdio: "ignore" });
  }
}

async function jsonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.name === "__MACOSX") continue;
    if (entry.isDirectory()) out.push(...(await jsonFiles(full)));
    else if (entry.name.endsWith(".json") && !entry.name.startsWith("._")) out.push(full);
  }
  return out;
}

/**
 * All passages, one per key: the corpus holds 27 repeated keys (an empty twin beside the real
 * passage), merged here so the 13,705 keys the gold refers to each map to one section.
 */
export async function loadPassages(zipFile: string): Promise<Passage[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "obliqa-"));
  try {
    unzipTo(zipFile, dir);
    const byKey = new Map<string, Passage>();
    const files = await jsonFiles(dir);
    files.sort((a, b) => Number(path.basename(a, ".json")) - Number(path.basename(b, ".json")));
    for (const file of files) {
      const rows = z.array(passageSchema).parse(JSON.parse(await readFile(file, "utf8")));
      for (const row of rows) {
        const key = passageKey(row.DocumentID, row.PassageID);
        const seen = byKey.get(key);
        if (seen) {
          seen.uids.push(row.ID);
          if (row.Passage.trim() !== "" && !seen.text.includes(row.Passage)) {
            seen.text = seen.text.trim() === "" ? row.Passage : `${seen.text}\n${row.Passage}`;
          }
          continue;
        }
        byKey.set(key, { uids: [row.ID], documentId: String(row.DocumentID), passageId: row.PassageID, text: row.Passage });
      }
    }
    return [...byKey.values()];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function loadObliqaQuestions(file: string): Promise<Question[]> {
  const rows = obliqaSchema.parse(JSON.parse(await readFile(file, "utf8")));
  return rows.map((r) => ({
    id: r.QuestionID,
    text: r.Question,
    gold: [...new Set(r.Passages.map((p) => passageKey(p.DocumentID, p.PassageID)))],
  }));
}

/** XRefRAG names passages by UUID; `uidToKey` maps them onto the ObliQA keys. */
export async function loadXrefQuestions(file: string, uidToKey: ReadonlyMap<string, string>): Promise<Question[]> {
  const lines = (await readFile(file, "utf8")).split("\n").filter((l) => l.trim() !== "");
  const out: Question[] = [];
  for (const line of lines) {
    const r = xrefSchema.parse(JSON.parse(line));
    const source = uidToKey.get(r.source_passage_id);
    const target = uidToKey.get(r.target_passage_id);
    if (source === undefined || target === undefined) continue;
    out.push({ id: r.item_id, text: r.question, gold: [...new Set([source, target])], source, target });
  }
  return out;
}
