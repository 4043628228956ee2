import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { DamagedDocument, DamagedDocumentInfo, DocumentRecord, LibraryCheck, LibraryHealth } from "../model/store-records.ts";

// Beside each kept source copy (`sources/<id>.<ext>`) the engine writes `sources/<id>.record.json`:
// where the file came from and under which name. The database holds the same, but a library that
// lost a document's row (library-check.ts) has only the copy left; with the record a repair
// re-imports it under its own name instead of the copy's hash-like one.

/** Where a re-import takes its name and path from, instead of the file it reads. */
export interface ImportOrigin {
  file: string;
  fileName: string;
  /** Kept when a library is rebuilt, so the library's order and dates stay as they were. */
  importedAt?: string;
  /** The user's alias edits (core/model/document-names.ts), carried over by a rebuild. */
  userAliases?: string[];
  hiddenAliases?: string[];
}

const sourceRecordSchema = z.object({
  id: z.string().min(1),
  sha256: z.string(),
  file: z.string(),
  fileName: z.string().min(1),
  importedAt: z.string(),
  userAliases: z.array(z.string()).optional(),
  hiddenAliases: z.array(z.string()).optional(),
});

type SourceRecord = z.infer<typeof sourceRecordSchema>;

const RECORD_SUFFIX = ".record.json";

function sourcesDir(dataDir: string): string {
  return path.join(dataDir, "sources");
}

function recordPath(dataDir: string, documentId: string): string {
  return path.join(sourcesDir(dataDir), `${documentId}${RECORD_SUFFIX}`);
}

export async function writeSourceRecord(dataDir: string, doc: DocumentRecord): Promise<void> {
  const record: SourceRecord = { id: doc.id, sha256: doc.sha256, file: doc.file, fileName: doc.fileName, importedAt: doc.importedAt };
  // The user's names survive a damaged library too: a document it lost is rebuilt from this record.
  if ((doc.userAliases?.length ?? 0) > 0) record.userAliases = doc.userAliases;
  if ((doc.hiddenAliases?.length ?? 0) > 0) record.hiddenAliases = doc.hiddenAliases;
  await writeFile(recordPath(dataDir, doc.id), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

export async function removeSourceRecord(dataDir: string, documentId: string): Promise<void> {
  await rm(recordPath(dataDir, documentId), { force: true });
}

export async function readSourceRecord(dataDir: string, documentId: string): Promise<SourceRecord | null> {
  try {
    const parsed = sourceRecordSchema.safeParse(JSON.parse(await readFile(recordPath(dataDir, documentId), "utf8")));
    return parsed.success && parsed.data.id === documentId ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The kept copy of a document: `sources/<id>.<ext>` (never a record or a half-written `.part`). */
export async function findSourceCopy(dataDir: string, documentId: string): Promise<string | null> {
  const names = await readdir(sourcesDir(dataDir)).catch((): string[] => []);
  const copy = names.find((n) => n.startsWith(`${documentId}.`) && !n.endsWith(RECORD_SUFFIX) && !n.endsWith(".part"));
  return copy === undefined ? null : path.join(sourcesDir(dataDir), copy);
}

/** What each table holds, in an auditor's words. */
const TABLE_WORDS: Record<string, string> = {
  Document: "document record",
  Section: "sections",
  Reference: "citations",
  Term: "defined terms",
  Entity: "parties and objects",
  Triplet: "obligation facts",
  SectionEmbedding: "section search vectors",
  TripletEmbedding: "fact search vectors",
};

function describe(d: DamagedDocument, name: string, hasCopy: boolean): string {
  const kept = Object.entries(d.rows)
    .map(([table, n]) => `${n} ${TABLE_WORDS[table] ?? table}`)
    .join(", ");
  const what =
    d.problem === "lost"
      ? `${name} is no longer listed, but the library still holds parts of it (${kept || "none"})`
      : `${name} is listed with ${d.recordedSections ?? 0} sections, but only ${d.linkedSections ?? 0} are stored`;
  return `${what}. ${hasCopy ? "Repair re-imports it from the copy kept when it was imported." : "No copy of it was kept: repair removes what remains, and it must be imported again from the original file."}`;
}

/** The store's check, with each damaged document's name and kept copy. */
export async function libraryHealth(dataDir: string, check: LibraryCheck): Promise<LibraryHealth> {
  const damaged = await Promise.all(
    check.damaged.map(async (d): Promise<DamagedDocumentInfo> => {
      const [record, sourceFile] = await Promise.all([readSourceRecord(dataDir, d.documentId), findSourceCopy(dataDir, d.documentId)]);
      const fileName = record?.fileName ?? null;
      return {
        ...d,
        fileName,
        originalFile: record?.file ?? null,
        sourceFile,
        message: describe(d, fileName ?? `document ${d.documentId}`, sourceFile !== null),
      };
    }),
  );
  return { documents: check.documents, damaged };
}
