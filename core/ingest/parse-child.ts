import { Worker } from "node:worker_threads";
import { toErrorInfo } from "../model/errors.ts";
import type { ChildMessage } from "./parse-child-protocol.ts";
import { parseRequestSchema } from "./parse-child-protocol.ts";
import { parseDocument } from "./parse-document.ts";
import { OcrNeededError } from "./ocr/ocr-needed.ts";

// The parsing child: the engine forks this file (parse-isolated.ts) and sends it one file at a
// time to parse. It owns nothing of the library, so the engine can kill it at any moment — on a
// breached limit, on cancel — and carry on. It exits when the engine goes away.

/** How often the child reports its own RSS, for platforms without /proc. */
const MEMORY_REPORT_MS = 500;
/** How often the child checks that the engine that forked it is still there. */
const ORPHAN_CHECK_MS = 500;

if (process.send === undefined) {
  console.error("parse-child is started by the engine (core/ingest/parse-isolated.ts), not by hand");
  process.exit(2);
}
const send = (message: ChildMessage): void => {
  process.send?.(message);
};

process.on("disconnect", () => process.exit(0));
// pdf.js can hold this thread for minutes (q nested 100,000 deep), so "disconnect" is not handled
// while it does: a child whose engine was SIGKILLed went on parsing, orphaned, for minutes of CPU
// until we found it. A worker thread has its own event loop: it kills the process as soon as the
// parent is gone (the child is re-parented, so its ppid changes).
new Worker(
  `const { workerData } = require("node:worker_threads");
   setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, "SIGKILL"); }, ${ORPHAN_CHECK_MS});`,
  { eval: true, workerData: process.ppid },
).unref();
setInterval(() => send({ type: "memory", rss: process.memoryUsage.rss() }), MEMORY_REPORT_MS).unref();

let busy = false;
process.on("message", (raw: unknown) => {
  const request = parseRequestSchema.safeParse(raw);
  if (!request.success || busy) {
    send({ type: "failed", error: { code: "INTERNAL", message: busy ? "the parser is busy" : "malformed parse request" } });
    return;
  }
  busy = true;
  const { file, password, sha256, bytes, limits, ocr } = request.data;
  parseDocument(file, {
    ...(password === undefined ? {} : { password }),
    ...(sha256 === undefined ? {} : { sha256 }),
    ...(bytes === undefined ? {} : { bytes }),
    ...(ocr === undefined ? {} : { ocr }),
    limits,
    onPage: (page, total) => send({ type: "progress", page, total }),
    onOcrStart: (pages) => send({ type: "ocr-start", pages }),
    onOcrPage: (done, total) => send({ type: "ocr-page", done, total }),
  })
    .then(
      (document) => send({ type: "done", document }),
      (err: unknown) => send({ type: "failed", error: toErrorInfo(err, file), ...(err instanceof OcrNeededError ? { ocrOffer: err.offer } : {}) }),
    )
    .finally(() => {
      busy = false;
    });
});

send({ type: "ready" });
