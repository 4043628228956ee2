import { useCallback, useEffect, useRef, useState } from "react";
import { LIMITS } from "../../../core/contract/contract.ts";
import type {
  ClauseGraphApi,
  DocumentRecord,
  ErrorInfo,
  ImportResult,
  JobProgressEvent,
  Result,
} from "../../../core/contract/contract.ts";
import { baseName, isImportable } from "../lib/format.ts";
import { readFileBase64 } from "../lib/read-file-base64.ts";

// The library's state: the imported documents plus the imports in flight or that need attention.
// Every file is its own request so one bad file never hides the others' results.

export type ImportSource = { kind: "path"; path: string } | { kind: "upload"; file: File };

export interface ImportEntry {
  key: string;
  name: string;
  state: "importing" | "failed" | "skipped";
  source: ImportSource;
  jobId?: string;
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
  cancelImport(key: string): void;
  dismiss(key: string): void;
  deleteDocument(id: string): Promise<ErrorInfo | null>;
  refresh(): Promise<void>;
}


let keyCounter = 0;
const nextKey = (): string => `import-${++keyCounter}`;

function fail(code: ErrorInfo["code"], message: string): { ok: false; error: ErrorInfo } {
  return { ok: false, error: { code, message } };
}

async function sendImport(api: ClauseGraphApi, source: ImportSource, password?: string): Promise<Result<ImportResult[]>> {
  const extra = password === undefined ? {} : { password };
  if (source.kind === "path") return api.importDocuments({ files: [source.path], ...extra });
  if (source.file.size > LIMITS.uploadBytes) return fail("TOO_LARGE", "Files over 100 MB cannot be uploaded");
  // The web host streams the file; only Electron's path-less files still travel as base64.
  if (api.uploadFile !== undefined) return api.uploadFile(source.file, { name: source.file.name, ...extra });
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
  const importsRef = useRef(imports);
  importsRef.current = imports;

  const patch = useCallback((key: string, change: Partial<ImportEntry> | null) => {
    setImports((all) =>
      change === null ? all.filter((e) => e.key !== key) : all.map((e) => (e.key === key ? { ...e, ...change } : e)),
    );
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

  useEffect(
    () =>
      api.onJobProgress((progress) => {
        setImports((all) => {
          const subjectName = progress.subject === undefined ? null : baseName(progress.subject);
          const target =
            all.find((e) => e.jobId === progress.jobId) ??
            all.find((e) => e.state === "importing" && e.jobId === undefined && e.name === subjectName);
          if (target === undefined) return all;
          return all.map((e) => (e === target ? { ...e, jobId: progress.jobId, progress } : e));
        });
      }),
    [api],
  );

  const run = useCallback(
    async (key: string, source: ImportSource, password?: string) => {
      const result = await sendImport(api, source, password);
      if (!result.ok) {
        patch(key, { state: "failed", error: result.error });
        return;
      }
      const first = result.value[0];
      if (first === undefined) {
        patch(key, { state: "failed", error: { code: "INTERNAL", message: "The engine returned no result" } });
      } else if (first.status === "error") {
        patch(key, { state: "failed", error: first.error ?? { code: "INTERNAL", message: "Import failed" } });
      } else if (first.status === "skipped") {
        patch(key, { state: "skipped", notice: first.warnings[0] ?? "Already in the library" });
      } else {
        patch(key, null);
      }
      await refresh();
    },
    [api, patch, refresh],
  );

  const addFiles = useCallback(
    (files: File[]) => {
      const entries: ImportEntry[] = files.map((file) => {
        const path = api.pathForFile?.(file) ?? "";
        const source: ImportSource = path !== "" ? { kind: "path", path } : { kind: "upload", file };
        const base = { key: nextKey(), name: file.name, source };
        return isImportable(file.name)
          ? { ...base, state: "importing" }
          : { ...base, state: "failed", error: { code: "UNSUPPORTED_TYPE", message: `${file.name} is not a PDF, .txt or .md file` } };
      });
      setImports((all) => [...entries, ...all]);
      for (const entry of entries) if (entry.state === "importing") void run(entry.key, entry.source);
    },
    [api, run],
  );

  const retryWithPassword = useCallback(
    (key: string, password: string) => {
      const entry = importsRef.current.find((e) => e.key === key);
      if (entry === undefined) return;
      setImports((all) =>
        all.map((e) => (e.key === key ? { key, name: e.name, source: e.source, state: "importing" } : e)),
      );
      void run(key, entry.source, password);
    },
    [run],
  );

  const cancelImport = useCallback(
    (key: string) => {
      const jobId = importsRef.current.find((e) => e.key === key)?.jobId;
      if (jobId !== undefined) void api.cancelJob({ jobId });
    },
    [api],
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

  return { documents, imports, loaded, listError, addFiles, retryWithPassword, cancelImport, dismiss, deleteDocument, refresh };
}
