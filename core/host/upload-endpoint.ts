import { createWriteStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { Transform } from "node:stream";
import type { TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { callerJobId, LIMITS, uploadName, WEB_UPLOAD } from "../contract/contract.ts";
import type { Result } from "../contract/contract.ts";
import type { Dispatcher, ImportRequest } from "../contract/dispatch.ts";
import { OCR_LANGUAGES, OCR_MODES, ocrLanguageSchema, ocrModeSchema } from "../model/ocr-types.ts";
import type { ImportResult } from "../model/engine-types.ts";
import type { ErrorCode } from "../model/errors.ts";
import { PRIVATE_FILE_MODE } from "../files/private-files.ts";
import { createUploadGate } from "./upload-gate.ts";
import { createUploadDir } from "./upload-store.ts";

// `POST /api/upload?name=<file name>`: a file's bytes streamed straight to a temporary file and
// imported from there. Uploads used to travel as base64 inside one WebSocket message: the host held
// the frame, the decoded string, the parsed JSON and the bytes at once (several times the file),
// and concurrent large uploads ran V8 out of memory. Here a request costs one 64 KiB
// stream buffer whatever the file's size, the size is checked from Content-Length before a byte is
// read and counted again while streaming, and at most `maxActive` uploads are received or imported
// at once (see upload-gate.ts).

export interface UploadLimits {
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /** Uploads received or imported at once. */
  maxActive: number;
  /** Uploads waiting for a slot before further ones are refused BUSY. */
  maxQueued: number;
  /**
   * Once admitted, a body must arrive at this many bytes a second on average (after a grace
   * period): a client that drips a byte every few seconds does not keep a slot from the others.
   */
  minBytesPerSecond: number;
  /** Added to every upload's deadline, for the connection's start and a busy machine. */
  graceMs: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxBytes: LIMITS.uploadBytes,
  // The engine imports one file at a time; a second slot lets the next file arrive meanwhile.
  maxActive: 2,
  // A browser opens at most 6 connections to a host, so only other clients can fill this.
  maxQueued: 32,
  // The browser uploads over the loopback at tens of MB/s; 64 KiB/s gives a 100 MB file 27 min.
  minBytesPerSecond: 64 * 1024,
  graceMs: 15_000,
};

/** An admitted upload that sends nothing for this long is dropped, so a stalled client cannot keep its slot. */
const IDLE_MS = 30_000;

export type UploadHandler = (req: IncomingMessage, res: ServerResponse, headers: Record<string, string>) => Promise<void>;

class UploadRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Fails the stream as soon as more than `max` bytes went through. */
function byteLimit(max: number): Transform & { bytes(): number } {
  let seen = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > max) callback(new UploadRefused(413, "TOO_LARGE", `Files over ${Math.round(max / (1024 * 1024))} MB cannot be uploaded`));
      else callback(null, chunk);
    },
  });
  return Object.assign(limiter, { bytes: () => seen });
}

function sendResult(res: ServerResponse, status: number, headers: Record<string, string>, result: Result<ImportResult[]>, close = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(result);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    // An unread body cannot be skipped on a kept-alive connection: close it instead.
    ...(close ? { Connection: "close" } : {}),
  });
  res.end(body);
}

/** The uploaded file's name and password from the request line and headers (VALIDATION when malformed). */
function readRequest(req: IncomingMessage): { name: string; request: ImportRequest; length: number } {
  const url = new URL(req.url ?? "/", "http://localhost");
  const name = uploadName.safeParse(url.searchParams.get(WEB_UPLOAD.nameParam) ?? "");
  if (!name.success) {
    const custom = name.error.issues.find((i) => i.code === "custom")?.message;
    throw new UploadRefused(400, "VALIDATION", `The "${WEB_UPLOAD.nameParam}" parameter ${custom ?? "must be a plain file name"}`);
  }
  const rawJobId = url.searchParams.get(WEB_UPLOAD.jobIdParam);
  const jobId = rawJobId === null ? undefined : callerJobId.safeParse(rawJobId).data;
  if (rawJobId !== null && jobId === undefined)
    throw new UploadRefused(400, "VALIDATION", `The "${WEB_UPLOAD.jobIdParam}" parameter must be 1–64 letters, digits, _ or -`);
  const rawOcr = url.searchParams.get(WEB_UPLOAD.ocrParam);
  const ocr = rawOcr === null ? undefined : ocrModeSchema.safeParse(rawOcr).data;
  if (rawOcr !== null && ocr === undefined)
    throw new UploadRefused(400, "VALIDATION", `The "${WEB_UPLOAD.ocrParam}" parameter must be one of ${OCR_MODES.join(", ")}`);
  const rawLanguage = url.searchParams.get(WEB_UPLOAD.ocrLanguageParam);
  const ocrLanguage = rawLanguage === null ? undefined : ocrLanguageSchema.safeParse(rawLanguage).data;
  if (rawLanguage !== null && ocrLanguage === undefined)
    throw new UploadRefused(400, "VALIDATION", `The "${WEB_UPLOAD.ocrLanguageParam}" parameter must be one of ${OCR_LANGUAGES.join(", ")}`);
  const rawPassword = req.headers[WEB_UPLOAD.passwordHeader.toLowerCase()];
  let password: string | undefined;
  if (typeof rawPassword === "string") {
    try {
      password = decodeURIComponent(rawPassword);
    } catch {
      throw new UploadRefused(400, "VALIDATION", "The password header is not percent-encoded UTF-8");
    }
    if (password.length > LIMITS.password) throw new UploadRefused(400, "VALIDATION", "The password is too long");
  }
  const lengthHeader = req.headers["content-length"];
  const length = lengthHeader === undefined ? Number.NaN : Number(lengthHeader);
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new UploadRefused(411, "VALIDATION", "An upload must say its size (Content-Length)");
  }
  return {
    name: name.data,
    request: {
      ...(jobId === undefined ? {} : { jobId }),
      ...(password === undefined ? {} : { password }),
      ...(ocr === undefined ? {} : { ocr }),
      ...(ocrLanguage === undefined ? {} : { ocrLanguage }),
    },
    length,
  };
}

export function createUploadHandler(options: { dataDir: string; dispatcher: Dispatcher; limits: UploadLimits; log: (message: string) => void }): UploadHandler {
  const { dataDir, dispatcher, limits, log } = options;
  const gate = createUploadGate(limits.maxActive, limits.maxQueued);

  return async (req, res, headers) => {
    const refuse = (err: UploadRefused): void => sendResult(res, err.status, headers, { ok: false, error: { code: err.code, message: err.message } }, true);
    if (req.method !== "POST") {
      refuse(new UploadRefused(405, "VALIDATION", "Uploads are POST requests"));
      return;
    }
    let request: ReturnType<typeof readRequest>;
    try {
      request = readRequest(req);
    } catch (err) {
      if (err instanceof UploadRefused) refuse(err);
      else throw err;
      return;
    }
    if (request.length > limits.maxBytes) {
      refuse(new UploadRefused(413, "TOO_LARGE", `Files over ${Math.round(limits.maxBytes / (1024 * 1024))} MB cannot be uploaded`));
      return;
    }

    // The client may give up while queued or mid-transfer: free its slot and its file.
    const gone = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) gone.abort();
    };
    res.once("close", onClose);
    const release = await gate.enter(gone.signal);
    if (release === null) {
      if (!gone.signal.aborted) {
        refuse(new UploadRefused(503, "BUSY", `ClauseGraph is already receiving ${limits.maxActive + limits.maxQueued} files; try again in a moment`));
      }
      return;
    }
    let reply: { status: number; result: Result<ImportResult[]>; close: boolean } | null = null;
    const upload = await createUploadDir(dataDir).catch((err: unknown) => {
      release();
      throw err;
    });
    try {
      const target = path.join(upload.dir, request.name);
      const limiter = byteLimit(Math.min(request.length, limits.maxBytes));
      req.socket.setTimeout(IDLE_MS, () => req.destroy());
      // The whole body by a deadline its size sets: a slow drip gives its slot back.
      const slow = new AbortController();
      const deadline = setTimeout(() => slow.abort(), limits.graceMs + (request.length / Math.max(1, limits.minBytesPerSecond)) * 1000);
      try {
        await pipeline(req, limiter, createWriteStream(target, { flags: "wx", mode: PRIVATE_FILE_MODE }), {
          signal: AbortSignal.any([gone.signal, slow.signal]),
        });
      } catch (err) {
        if (slow.signal.aborted && !gone.signal.aborted) {
          throw new UploadRefused(
            408,
            "BUSY",
            `The upload of "${request.name}" arrived too slowly (${limiter.bytes()} of ${request.length} bytes in time) and was dropped; try again`,
          );
        }
        throw err;
      } finally {
        clearTimeout(deadline);
        // A body cut short (the deadline, the client) took its socket with it.
        (req.socket as typeof req.socket | null)?.setTimeout(0);
      }
      if (limiter.bytes() !== request.length) {
        throw new UploadRefused(400, "VALIDATION", `The upload ended after ${limiter.bytes()} of ${request.length} bytes`);
      }
      reply = { status: 200, result: await dispatcher.importUploads([{ path: target, name: request.name }], request.request), close: false };
    } catch (err) {
      if (err instanceof UploadRefused) reply = { status: err.status, result: { ok: false, error: { code: err.code, message: err.message } }, close: true };
      else if (!gone.signal.aborted) {
        log(`upload ${request.name}: ${err instanceof Error ? err.message : String(err)}`);
        // The system's message names the upload's internal path: the client gets its code only.
        const code = err instanceof Error && "code" in err && typeof err.code === "string" ? ` (${err.code})` : "";
        const message = `The upload of "${request.name}" could not be stored${code}`;
        reply = { status: 500, result: { ok: false, error: { code: "WRITE_FAILED", message } }, close: true };
      }
    } finally {
      res.off("close", onClose);
      // Removed before the answer goes out, whatever happened: nothing of the upload outlives it.
      await upload.cleanup();
      release();
    }
    if (reply !== null && !gone.signal.aborted) sendResult(res, reply.status, headers, reply.result, reply.close);
  };
}
