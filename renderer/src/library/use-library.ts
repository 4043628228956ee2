import { useCallback, useEffect, useRef, useState } from "react";
import { LIMITS } from "../../../core/contract/contract.ts";
import type {
  ClauseGraphApi,
  DocumentRecord,
  ErrorInfo,
  ImportResult,
  JobProgressEvent,
  OcrLanguage,
  OcrMode,
  OcrOffer,
  OcrPreference,
  Result,
} from "../../../core/contract/contract.ts";
import { isImportable } from "../lib/format.ts";
import { readFileBase64 } from "../lib/read-file-base64.ts";

// The library's state: the imported documents plus the imports in flight or that need attention.
// Every file is its own request so one bad file never hides the others' results. Files are sent
// in the order they were dropped, each with a job id of ours: its progress and its Cancel are
// matched by that id, a file still waiting here is cancelled without ever being sent, and a
// finished file leaves the queue (and enters the document list) as soon as its own result is back.
// The next file is sent only once the engine has queued the one before (its first progress event):
// two uploads in flight could otherwise reach it in either order. And at most two are in flight,
// one importing and one waiting in the engine: the engine then sees a file waiting and skips the
// search-index rebuild between the two, rebuilding once when the queue runs dry.

export type ImportSource = { kind: "path"; path: string } | { kind: "upload"; file: File };

export interface ImportEntry {
  key: string;
  /** Drop order: the queue sends the lowest first. */
  seq: number;
  name: string;
  /** queued: waiting here, not sent; importing: sent, until its result is back; needs-ocr: scanned, waiting for the user's answer. */
  state: "queued" | "importing" | "failed" | "skipped" | "cancelled" | "needs-ocr";
  source: ImportSource;
  jobId: string;
  password?: string;
  /** This file's own answer to the OCR question (else the remembered preference applies). */
  ocr?: OcrMode;
  ocrLanguage?: OcrLanguage;
  /** With state needs-ocr: what reading it with OCR would take. */
  ocrOffer?: OcrOffer;
  progress?: JobProgressEvent;
  error?: ErrorInfo;
  notice?: string;
}

export interface Library {
  documents: DocumentRecord[];
  imports: ImportEntry[];
  loaded: boolean;
  listError: ErrorInfo | null;
  addFiles(files: File[]): void;
  retryWithPassword(key: string, password: string): void;
  /** The remembered choice for scanned PDFs ("ask" until the user makes one). */
  ocrPreference: OcrPreference;
  setOcrPreference(preference: OcrPreference): void;
  /** The answer to a scanned file's question: read it with OCR (in this language), or leave it out. */
  readWithOcr(key: string, language: OcrLanguage | "auto", remember: boolean): void;
  skipOcr(key: string, remember: boolean): void;
  cancelImport(key: string): void;
  dismiss(key: string): void;
  deleteDocument(id: string): Promise<ErrorInfo | null>;
  /** Makes these the document's names (documents.aliases). */
  setAliases(id: string, aliases: string[]): Promise<ErrorInfo | null>;
  refresh(): Promise<void>;
}

let keyCounter = 0;
const nextKey = (): { key: string; seq: number } => ({ key: `import-${++keyCounter}`, seq: keyCounter });
let jobCounter = 0;
const nextJobId = (): string => `import-${Date.now().toString(36)}-${++jobCounter}`;

function fail(code: ErrorInfo["code"], message: string): { ok: false; error: ErrorInfo } {
  return { ok: false, error: { code, message } };
}

const DEFAULT_OCR_PREFERENCE: OcrPreference = { mode: "ask", language: "auto" };

async function sendImport(api: ClauseGraphApi, entry: ImportEntry, preference: OcrPreference, signal: AbortSignal): Promise<Result<ImportResult[]>> {
  const { source, jobId } = entry;
  // The file's own answer, else the remembered one ("ask": the engine stops with NEEDS_OCR and an offer).
  const ocr = entry.ocr ?? preference.mode;
  const ocrLanguage = entry.ocrLanguage ?? (preference.language === "auto" ? undefined : preference.language);
  const extra = {
    jobId,
    ocr,
    ...(ocrLanguage === undefined ? {} : { ocrLanguage }),
    ...(entry.password === undefined ? {} : { password: entry.password }),
  };
  if (source.kind === "path") return api.importDocuments({ files: [source.path], ...extra });
  if (source.file.size > LIMITS.uploadBytes) return fail("TOO_LARGE", "Files over 100 MB cannot be uploaded");
  // The web host streams the file; only Electron's path-less files still travel as base64.
  if (api.uploadFile !== undefined) return api.uploadFile(source.file, { name: source.file.name, signal, ...extra });
  let bytesBase64: string;
  try {
    bytesBase64 = await readFileBase64(source.file);
  } catch (err) {
    return fail("FILE_UNREADABLE", err instanceof Error ? err.message : String(err));
  }
  return api.uploadDocuments({ files: [{ name: source.file.name, bytesBase64 }], ...extra });
}

export function useLibrary(api: ClauseGraphApi): Library {
  const [documents, setDocuments] = useState<DocumentRecord[]>([]);
  const [imports, setImports] = useState<ImportEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [listError, setListError] = useState<ErrorInfo | null>(null);
  const [ocrPreference, setPreference] = useState<OcrPreference>(DEFAULT_OCR_PREFERENCE);
  const preferenceRef = useRef(ocrPreference);
  preferenceRef.current = ocrPreference;
  const importsRef = useRef(imports);
  importsRef.current = imports;
  // The request of the file being sent, so a cancel can abort an upload the engine has not seen yet.
  const sending = useRef(new Map<string, AbortController>());

  const patch = useCallback((key: string, change: Partial<ImportEntry> | null) => {
    setImports((all) => (change === null ? all.filter((e) => e.key !== key) : all.map((e) => (e.key === key ? { ...e, ...change } : e))));
  }, []);

  const refresh = useCallback(async () => {
    const result = await api.listDocuments({});
    if (result.ok) {
      setDocuments(result.value);
      setListError(null);
    } else {
      setListError(result.error);
    }
    setLoaded(true);
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // The remembered answer to "read scanned PDFs with OCR?", kept by the engine (settings.json).
  useEffect(() => {
    void api.getOcrPreference({}).then((result) => {
      if (result.ok) setPreference(result.value);
    });
  }, [api]);

  const setOcrPreference = useCallback(
    (preference: OcrPreference) => {
      setPreference(preference);
      void api.setOcrPreference(preference);
    },
    [api],
  );

  useEffect(
    () =>
      api.onJobProgress((progress) => {
        setImports((all) =>
          all.some((e) => e.jobId === progress.jobId && e.state === "importing")
            ? all.map((e) => (e.jobId === progress.jobId && e.state === "importing" ? { ...e, progress } : e))
            : all,
        );
      }),
    [api],
  );

  const run = useCallback(
    async (entry: ImportEntry) => {
      const { key } = entry;
      const controller = new AbortController();
      sending.current.set(key, controller);
      patch(key, { state: "importing" });
      const result = await sendImport(api, entry, preferenceRef.current, controller.signal).finally(() => {
        sending.current.delete(key);
      });
      const first = result.ok ? result.value[0] : undefined;
      if (controller.signal.aborted) {
        patch(key, { state: "cancelled" });
      } else if (!result.ok) {
        patch(key, { state: "failed", error: result.error });
      } else if (first === undefined) {
        patch(key, { state: "failed", error: { code: "INTERNAL", message: "The engine returned no result" } });
      } else if (first.status === "error" && first.error?.code === "CANCELLED") {
        patch(key, { state: "cancelled" });
      } else if (first.status === "error" && first.error?.code === "NEEDS_OCR" && first.ocrOffer !== undefined) {
        // Scanned: the row asks the user; nothing was imported.
        patch(key, { state: "needs-ocr", ocrOffer: first.ocrOffer });
      } else if (first.status === "error") {
        patch(key, { state: "failed", error: first.error ?? { code: "INTERNAL", message: "Import failed" } });
      } else if (first.status === "skipped") {
        patch(key, { state: "skipped", notice: first.warnings[0] ?? "Already in the library" });
      } else {
        // Listed first, then the row goes: the file is never in neither list.
        await refresh();
        patch(key, null);
        return;
      }
      await refresh();
    },
    [api, patch, refresh],
  );

  // The queue: the earliest dropped file still waiting goes next, once the engine has queued every
  // file sent before it, with at most two in flight.
  useEffect(() => {
    const inFlight = imports.filter((e) => e.state === "importing");
    if (inFlight.length >= 2 || inFlight.some((e) => e.progress === undefined)) return;
    const next = imports.filter((e) => e.state === "queued").sort((a, b) => a.seq - b.seq)[0];
    if (next !== undefined) void run(next);
  }, [imports, run]);

  const addFiles = useCallback(
    (files: File[]) => {
      const entries: ImportEntry[] = files.map((file) => {
        const path = api.pathForFile?.(file) ?? "";
        const source: ImportSource = path !== "" ? { kind: "path", path } : { kind: "upload", file };
        const base = { ...nextKey(), name: file.name, source, jobId: nextJobId() };
        return isImportable(file.name)
          ? { ...base, state: "queued" }
          : { ...base, state: "failed", error: { code: "UNSUPPORTED_TYPE", message: `${file.name} is not a PDF, .txt or .md file` } };
      });
      setImports((all) => [...entries, ...all]);
    },
    [api],
  );

  const retryWithPassword = useCallback((key: string, password: string) => {
    setImports((all) =>
      all.map((e) => (e.key === key ? { key, seq: e.seq, name: e.name, source: e.source, jobId: nextJobId(), password, state: "queued" } : e)),
    );
  }, []);

  const readWithOcr = useCallback(
    (key: string, language: OcrLanguage | "auto", remember: boolean) => {
      if (remember) setOcrPreference({ mode: "auto", language });
      setImports((all) =>
        all.map((e) =>
          e.key === key
            ? {
                key,
                seq: e.seq,
                name: e.name,
                source: e.source,
                jobId: nextJobId(),
                ...(e.password === undefined ? {} : { password: e.password }),
                ocr: "auto",
                ...(language === "auto" ? {} : { ocrLanguage: language }),
                state: "queued",
              }
            : e,
        ),
      );
    },
    [setOcrPreference],
  );

  const skipOcr = useCallback(
    (key: string, remember: boolean) => {
      if (remember) setOcrPreference({ mode: "never", language: preferenceRef.current.language });
      patch(key, { state: "skipped", notice: "Not imported: its scanned pages were not read with OCR." });
    },
    [patch, setOcrPreference],
  );

  const cancelImport = useCallback(
    (key: string) => {
      const entry = importsRef.current.find((e) => e.key === key);
      if (entry === undefined) return;
      // Still waiting here: it is simply never sent.
      if (entry.state === "queued") {
        patch(key, { state: "cancelled" });
        return;
      }
      if (entry.state !== "importing") return;
      void api.cancelJob({ jobId: entry.jobId }).then((reply) => {
        // The engine has not seen it yet (an upload still on its way): stop the upload instead.
        const unknownToEngine = !(reply.ok && reply.value.cancelled);
        const current = importsRef.current.find((e) => e.key === key);
        if (unknownToEngine && entry.source.kind === "upload" && current?.progress === undefined) sending.current.get(key)?.abort();
      });
    },
    [api, patch],
  );

  const dismiss = useCallback((key: string) => patch(key, null), [patch]);

  const deleteDocument = useCallback(
    async (id: string) => {
      const result = await api.deleteDocument({ id });
      await refresh();
      return result.ok ? null : result.error;
    },
    [api, refresh],
  );

  const setAliases = useCallback(
    async (id: string, aliases: string[]) => {
      const result = await api.setDocumentAliases({ id, aliases });
      if (result.ok) setDocuments((all) => all.map((d) => (d.id === id ? result.value : d)));
      return result.ok ? null : result.error;
    },
    [api],
  );

  return {
    documents,
    imports,
    loaded,
    listError,
    addFiles,
    retryWithPassword,
    ocrPreference,
    setOcrPreference,
    readWithOcr,
    skipOcr,
    cancelImport,
    dismiss,
    deleteDocument,
    setAliases,
    refresh,
  };
}
