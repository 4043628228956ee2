import type { Engine, ImportOptions, ImportResult } from "../../model/engine-types.ts";
import { ClauseGraphError } from "../../model/errors.ts";
import type { ParsedParams } from "../contract.ts";
import type { JobTracker } from "../job-tracker.ts";

// How a request may bring files into the library: by path (only paths the host granted: whoever
// can send a request must not thereby read any file the engine's user can), as bytes in the
// message (documents.upload, saved by the host's upload store), or as files the host itself wrote
// (streamed uploads). Every way runs as a tracked job, so jobs.cancel reaches a file still waiting.

export interface UploadedFile {
  name: string;
  bytesBase64: string;
}

/** Where a host puts uploaded bytes so the engine can import them by path (needs the file system). */
export interface UploadStore {
  save(files: UploadedFile[]): Promise<{ paths: string[]; cleanup(): Promise<void> }>;
}

/** A file the host already wrote to its upload folder, with the name its user gave it. */
export interface UploadedPath {
  path: string;
  name: string;
}

/** What an import request says besides its files: password, the caller's job id, OCR. */
export type ImportRequest = Pick<ImportOptions, "password" | "jobId" | "ocr" | "ocrLanguage">;

/** The request's fields that are set (exactOptionalPropertyTypes: no `undefined` values). */
export function importRequest(params: {
  password?: string | undefined;
  jobId?: string | undefined;
  ocr?: ImportOptions["ocr"] | undefined;
  ocrLanguage?: ImportOptions["ocrLanguage"] | undefined;
}): ImportRequest {
  return {
    ...(params.password === undefined ? {} : { password: params.password }),
    ...(params.jobId === undefined ? {} : { jobId: params.jobId }),
    ...(params.ocr === undefined ? {} : { ocr: params.ocr }),
    ...(params.ocrLanguage === undefined ? {} : { ocrLanguage: params.ocrLanguage }),
  };
}

export interface ImportGate {
  /** documents.import: FORBIDDEN unless the host granted every path. */
  byPath(files: string[], request: ImportRequest): Promise<ImportResult[]>;
  /** documents.upload: VALIDATION where the host takes no uploads in a message. */
  uploaded(params: ParsedParams<"documents.upload">): Promise<ImportResult[]>;
  /** Files the host wrote itself, reported under the names their user gave them. */
  hostFiles(files: UploadedPath[], request: ImportRequest): Promise<ImportResult[]>;
}

export interface ImportGateOptions {
  engine: Engine;
  jobs: JobTracker;
  /** Absent where uploads make no sense; documents.upload then answers VALIDATION. */
  uploads?: UploadStore | undefined;
  /** Which paths documents.import may read (DispatcherOptions.allowPathImport). */
  allowPathImport: (file: string) => boolean;
}

export function createImportGate(options: ImportGateOptions): ImportGate {
  const { engine, jobs, uploads, allowPathImport } = options;

  /**
   * The caller's job id (registered before the engine is called, so a file still waiting for its
   * turn can be cancelled) names the file's progress events; it and every per-file id cancel the call.
   */
  function importTracked(files: string[], request: ImportRequest): Promise<ImportResult[]> {
    return jobs.runTracked(request.jobId, (signal, onProgress) => engine.importFiles(files, { ...request, signal, onProgress }));
  }

  async function hostFiles(files: UploadedPath[], request: ImportRequest): Promise<ImportResult[]> {
    const results = await importTracked(
      files.map((file) => file.path),
      request,
    );
    // The temporary path means nothing to the user: report the name they uploaded.
    return results.map((result, index) => {
      const name = files[index]?.name ?? result.file;
      const error = result.error === undefined ? {} : { error: { ...result.error, file: name } };
      return { ...result, ...error, file: name };
    });
  }

  return {
    byPath(files, request) {
      const refused = files.find((file) => !allowPathImport(file));
      if (refused !== undefined) {
        throw new ClauseGraphError(
          "FORBIDDEN",
          `${refused} was not chosen in this window: only files dropped on ClauseGraph or picked in it can be imported by path (in the browser, files are uploaded instead)`,
          { file: refused },
        );
      }
      return importTracked(files, request);
    },
    async uploaded(params) {
      if (uploads === undefined) throw new ClauseGraphError("VALIDATION", "This host does not accept uploads in a message");
      const saved = await uploads.save(params.files);
      try {
        return await hostFiles(
          saved.paths.map((file, index) => ({ path: file, name: params.files[index]?.name ?? file })),
          importRequest(params),
        );
      } finally {
        await saved.cleanup();
      }
    },
    hostFiles,
  };
}
