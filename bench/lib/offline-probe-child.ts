// The process the offline probe (bench/lib/network-probe.ts) watches: a full session with the real
// engine — import, an OCR import of a scanned PDF (Tesseract's workers, wasm core and language
// data must all come from node_modules), search, an extractive ask, an ask with a local GGUF model
// when one is given — then the web host on 127.0.0.1 answering HTTP and WebSocket requests. It writes what it did as
// JSON to --out; the network guard preloaded into it counts any attempt to leave the machine.
// Usage: node --import test/helpers/network-guard.mjs bin/run-ts.mjs bench/lib/offline-probe-child.ts \
//          --out <file.json> --data <dir> [--pdf <file>] [--llm <model.gguf>] [--question <text>]
import { mkdir, writeFile } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { WebSocket } from "ws";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { startWebHost } from "../../core/host/web-host.ts";
import type { WebHost } from "../../core/host/web-host.ts";
import { scanPages } from "./scanned-pdf.ts";
import { regulationPdf } from "./trust-fixtures.ts";

export interface ProbeChildReport {
  ok: boolean;
  steps: string[];
  error?: string;
}

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    data: { type: "string" },
    pdf: { type: "string" },
    llm: { type: "string" },
    question: { type: "string" },
  },
});
if (values.out === undefined || values.data === undefined) {
  console.error("usage: offline-probe-child.ts --out <file.json> --data <dir> [--pdf <file>] [--llm <model.gguf>]");
  process.exit(2);
}
const outFile = values.out;
const dataDir = values.data;
const steps: string[] = [];
const question = values.question ?? "Who must be notified of a personal data breach?";

/** A GET with the host's session cookie (without it, every request is refused 401). */
function httpGet(url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Cookie: cookie } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Sends each request over one WebSocket and returns the results in order. */
async function wsRequests(host: WebHost, requests: { channel: string; payload: unknown }[]): Promise<unknown[]> {
  const ws = new WebSocket(`${host.origin.replace("http:", "ws:")}/api`, { origin: host.origin, headers: { Cookie: host.cookie } });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const pending = new Map<number, (result: unknown) => void>();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: unknown; result?: unknown };
    if (typeof message.id === "number") pending.get(message.id)?.(message.result);
  });
  try {
    return await Promise.all(
      requests.map(
        (req, id) =>
          new Promise<unknown>((resolve) => {
            pending.set(id, resolve);
            ws.send(JSON.stringify({ id, channel: req.channel, payload: req.payload }));
          }),
      ),
    );
  } finally {
    ws.close();
  }
}

function okResult(result: unknown): boolean {
  return typeof result === "object" && result !== null && "ok" in result && result.ok === true;
}

async function session(engine: Engine, file: string): Promise<void> {
  const [imported] = await engine.importFiles([file]);
  if (imported?.status !== "ok") throw new Error(`import failed: ${JSON.stringify(imported?.error ?? imported)}`);
  steps.push(`import: ${imported.sections} sections, ${imported.pages} pages`);
  // The same regulation's first page as a scan, read with OCR in the parsing child.
  const scanned = path.join(dataDir, "..", "fixture-scanned.pdf");
  await writeFile(scanned, await scanPages(await regulationPdf(), (index) => (index === 0 ? { skew: 0 } : null)));
  const [ocr] = await engine.importFiles([scanned], { ocr: "auto" });
  if (ocr?.status !== "ok" || ocr.ocr === undefined) throw new Error(`OCR import failed: ${JSON.stringify(ocr?.error ?? ocr)}`);
  steps.push(
    `OCR import: ${ocr.ocr.pages.length} page(s) read with OCR (${ocr.ocr.language}, confidence ${Math.round(ocr.ocr.meanConfidence)}), ${ocr.sections} sections`,
  );
  const search = await engine.search(question);
  if (search.results.length === 0) throw new Error("search found nothing");
  steps.push(`search: ${search.results.length} results`);
  const answer = await engine.ask(question);
  if (answer.citations.length === 0) throw new Error("extractive ask cited nothing");
  steps.push(`ask (${answer.mode}): ${answer.citations.length} citations`);
}

async function llmAsk(file: string, modelPath: string): Promise<void> {
  const { loadLlm } = await import("../../core/llm/load-llm.ts");
  const llm = await loadLlm({ modelPath, threads: 1, contextSize: 2048 });
  const engine = await createEngine({ dataDir, llm });
  try {
    // Already imported: a second import must skip it, and asking goes through the model.
    await engine.importFiles([file]);
    const answer = await engine.ask(question, { k: 3 });
    steps.push(`ask (${answer.mode}, ${llm.modelId}): ${answer.citations.length} citations`);
  } finally {
    await engine.close();
    await llm.close();
  }
}

async function webHost(): Promise<void> {
  const staticDir = path.join(dataDir, "..", "static");
  await mkdir(staticDir, { recursive: true });
  await writeFile(path.join(staticDir, "index.html"), "<!doctype html><title>ClauseGraph</title>");
  const host = await startWebHost({ dataDir, port: 0, staticDir });
  try {
    const page = await httpGet(`${host.origin}/`, host.cookie);
    if (page.status !== 200) throw new Error(`web host GET / answered ${page.status}`);
    const results = await wsRequests(host, [
      { channel: "stats", payload: {} },
      { channel: "documents.list", payload: {} },
      { channel: "search", payload: { query: question } },
      { channel: "ask", payload: { question } },
    ]);
    const failed = results.filter((result) => !okResult(result));
    if (failed.length > 0) throw new Error(`web host requests failed: ${JSON.stringify(failed).slice(0, 500)}`);
    steps.push(`web host: GET / and ${results.length} WebSocket requests`);
  } finally {
    await host.close();
  }
}

let report: ProbeChildReport;
try {
  await mkdir(dataDir, { recursive: true });
  let file = values.pdf;
  if (file === undefined) {
    file = path.join(dataDir, "..", "fixture-regulation.pdf");
    await writeFile(file, await regulationPdf());
  }
  const engine = await createEngine({ dataDir, llm: null });
  try {
    await session(engine, file);
  } finally {
    await engine.close();
  }
  if (values.llm !== undefined) await llmAsk(file, values.llm);
  await webHost();
  report = { ok: true, steps };
} catch (err) {
  report = { ok: false, steps, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
await writeFile(outFile, JSON.stringify(report));
process.exit(report.ok ? 0 : 1);
