import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { IMPORT_RECORD } from "./model-paths.ts";

// What the registry learnt when a model was imported, kept beside the file so listing models needs
// neither re-hashing gigabytes nor re-parsing headers. Read back through zod: it is a file on disk.

export const importRecordSchema = z.object({
  schemaVersion: z.literal(1),
  id: z.string().min(1),
  kind: z.literal("llm"),
  /** File name inside the model folder. */
  file: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  sizeBytes: z.number().int().nonnegative(),
  importedAt: z.string(),
  /** Manifest entry the file was recognised as, or null for a user's own model. */
  manifestId: z.string().nullable(),
  /** The sha256 matched the manifest's pinned one. */
  verified: z.boolean(),
  architecture: z.string(),
  name: z.string().nullable(),
  parameterCount: z.number().nonnegative(),
  contextLength: z.number().int().positive().nullable(),
  fileType: z.string().nullable(),
});

export type ImportRecord = z.infer<typeof importRecordSchema>;

export async function writeImportRecord(dir: string, record: ImportRecord): Promise<void> {
  await writeFile(path.join(dir, IMPORT_RECORD), `${JSON.stringify(record, null, 2)}\n`, "utf8");
}

/** The record in `dir`, or null when there is none or it is unreadable (the model is then listed without it). */
export async function readImportRecord(dir: string): Promise<ImportRecord | null> {
  let text: string;
  try {
    text = await readFile(path.join(dir, IMPORT_RECORD), "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = importRecordSchema.safeParse(JSON.parse(text) as unknown);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
