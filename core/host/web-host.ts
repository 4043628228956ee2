import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import type { RawData } from "ws";
import { API_METHODS, WEB_UPLOAD, wireRequestSchema } from "../contract/contract.ts";
import type { Channel, WireEvent, WireRequest, WireResponse } from "../contract/contract.ts";
import { createDispatcher } from "../contract/dispatch.ts";
import type { Engine } from "../model/engine-types.ts";
import { createRequestScheduler, MAX_IN_FLIGHT, MAX_QUEUED, type RequestKind } from "./connection-queue.ts";
import { allowedHosts, allowedOrigins, securityHeaders } from "./security-headers.ts";
import { createSessionAuth, TOKEN_PARAM } from "./session-auth.ts";
import type { SessionAuth } from "./session-auth.ts";
import { serveStatic } from "./static-files.ts";
import { createUploadHandler, DEFAULT_UPLOAD_LIMITS } from "./upload-endpoint.ts";
import type { UploadLimits } from "./upload-endpoint.ts";
import { clearUploads } from "./upload-store.ts";

// The browser front end of the engine for machines without Electron: the built renderer over
// HTTP and the contract over one WebSocket, on the loopback interface only.

export const API_PATH = "/api";
/**
 * The largest WebSocket message, checked by ws from the frame header before anything is buffered
 * or parsed. File bytes no longer travel in messages (uploads are HTTP POSTs, imports by path are
 * refused here): the largest real message is a `triplets.extract` naming every document (500 ids,
 * ~10 KB) or a question (2,000 characters). Before, the limit was one base64 upload (134 MiB) and a
 * deeply nested JSON message of tens of MB held the event loop for seconds in JSON.parse and zod;
 * that cost grows with the message's size, so at this limit a message holds it only briefly.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;
/**
 * Node's default (5 min) to receive a whole request would cut off an upload still waiting for its
 * slot behind slow imports; headers must still arrive within Node's 60 s headersTimeout.
 */
const REQUEST_TIMEOUT_MS = 60 * 60 * 1000;

export interface WebHostOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** Tests may bring their own engine; otherwise the real one is created on dataDir and closed with the host. */
  engine?: Engine;
  log?: (message: string) => void;
  /** Tests use small limits to prove them; the defaults are in upload-endpoint.ts. */
  uploadLimits?: Partial<UploadLimits>;
}

export interface WebHost {
  /** The address to open: it carries this run's secret, exchanged for a session cookie on first use. */
  url: string;
  /** `http://127.0.0.1:<port>`, without the secret. */
  origin: string;
  /** `name=value` of the session cookie, for in-process clients (tests, benches) that send their own Cookie header. */
  cookie: string;
  close(): Promise<void>;
}

/** Loaded on demand so a host given its own engine (tests) never loads Kuzu and pdf.js. */
async function openEngine(dataDir: string, log: (message: string) => void): Promise<Engine> {
  const { createEngine } = await import("../engine.ts");
  return createEngine({ dataDir, log, warmUp: true });
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data as ArrayBuffer).toString("utf8");
}

/** One incoming message read as a request, or the response refusing it; never throws. */
function readMessage(text: string): { request: WireRequest } | { refusal: WireResponse } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { refusal: { id: null, result: { ok: false, error: { code: "VALIDATION", message: "Message is not JSON" } } } };
  }
  const request = wireRequestSchema.safeParse(json);
  if (!request.success) {
    return { refusal: { id: null, result: { ok: false, error: { code: "VALIDATION", message: "Message is not a {id, channel, payload} request" } } } };
  }
  return { request: request.data };
}

/** Requests that never wait behind others of their connection. */
/**
 * How each channel's requests are scheduled (connection-queue.ts): long work has queues of its own
 * in the engine and takes none of the interactive slots; a cancel runs at once. A new channel
 * without a kind is a compile error.
 */
const REQUEST_KINDS: Record<Channel, RequestKind> = {
  [API_METHODS.cancelJob]: "control",
  [API_METHODS.importDocuments]: "long",
  [API_METHODS.uploadDocuments]: "long",
  [API_METHODS.deleteDocument]: "long",
  [API_METHODS.checkLibrary]: "long",
  [API_METHODS.repairLibrary]: "long",
  [API_METHODS.extractTriplets]: "long",
  [API_METHODS.importModel]: "long",
  [API_METHODS.selectModel]: "long",
  [API_METHODS.compareDocuments]: "long",
  [API_METHODS.exportComparison]: "long",
  [API_METHODS.exportAnswer]: "long",
  [API_METHODS.exportConversation]: "long",
  [API_METHODS.listDocuments]: "interactive",
  [API_METHODS.getOcrPreference]: "interactive",
  [API_METHODS.setOcrPreference]: "interactive",
  [API_METHODS.setDocumentAliases]: "interactive",
  [API_METHODS.search]: "interactive",
  [API_METHODS.ask]: "interactive",
  [API_METHODS.getSection]: "interactive",
  [API_METHODS.listSections]: "interactive",
  [API_METHODS.stats]: "interactive",
  [API_METHODS.graphNeighbors]: "interactive",
  [API_METHODS.entityFacts]: "interactive",
  [API_METHODS.getDocumentSource]: "interactive",
  [API_METHODS.listModels]: "interactive",
  [API_METHODS.setAnswerLimits]: "interactive",
  [API_METHODS.answerLog]: "interactive",
  [API_METHODS.createConversation]: "interactive",
  [API_METHODS.listConversations]: "interactive",
  [API_METHODS.getConversation]: "interactive",
  [API_METHODS.deleteConversation]: "interactive",
  [API_METHODS.listComparisons]: "interactive",
  [API_METHODS.getComparison]: "interactive",
  [API_METHODS.getComparisonPair]: "interactive",
  [API_METHODS.deleteComparison]: "interactive",
};

/** An unknown channel is answered VALIDATION by the dispatcher at once: it takes a slot for no time. */
const kindOf = (channel: unknown): RequestKind =>
  typeof channel === "string" && Object.hasOwn(REQUEST_KINDS, channel) ? REQUEST_KINDS[channel as Channel] : "interactive";

function sendJson(socket: WebSocket, message: WireResponse | WireEvent): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

const UNAUTHENTICATED = `<!doctype html><meta charset="utf-8"><title>ClauseGraph</title>
<p>This ClauseGraph window needs its key. Open the address printed in the terminal where ClauseGraph
was started (it ends with <code>?token=…</code>); it works for as long as that ClauseGraph runs.</p>`;

function refuseUnauthenticated(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(401, { ...headers, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(UNAUTHENTICATED);
}

/**
 * `?token=<secret>` on a GET: answered with the session cookie and a redirect to the same address
 * without the token. Returns false when the request carries no token.
 */
function exchangeToken(auth: SessionAuth, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): boolean {
  const url = new URL(req.url ?? "/", "http://localhost");
  const token = url.searchParams.get(TOKEN_PARAM);
  if (token === null || (req.method !== "GET" && req.method !== "HEAD")) return false;
  if (!auth.isToken(token)) {
    refuseUnauthenticated(res, headers);
    return true;
  }
  url.searchParams.delete(TOKEN_PARAM);
  res.writeHead(303, { ...headers, "Set-Cookie": auth.setCookieHeader(), Location: `${url.pathname}${url.search}`, "Cache-Control": "no-store" });
  res.end();
  return true;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const log = options.log ?? (() => {});
  const ownsEngine = options.engine === undefined;
  const engine = options.engine ?? (await openEngine(options.dataDir, log));
  // The engine holds the library's lock now, so no other process is using its upload folder.
  const dataDir = path.resolve(options.dataDir);
  const leftovers = await clearUploads(dataDir);
  if (leftovers > 0) log(`removed ${leftovers} upload folder(s) left by an earlier run`);
  const scheduler = createRequestScheduler();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // No `uploads` and no allowPathImport: over the WebSocket this host imports nothing by path
  // (FORBIDDEN) and takes no file bytes; files arrive through the upload endpoint only.
  const dispatcher = createDispatcher({
    engine,
    emit(event) {
      for (const client of wss.clients) sendJson(client, event);
    },
  });
  const uploadLimits: UploadLimits = { ...DEFAULT_UPLOAD_LIMITS, ...options.uploadLimits };
  const upload = createUploadHandler({ dataDir, dispatcher, limits: uploadLimits, log });

  let port = 0;
  let auth: SessionAuth | null = null;
  const server = createServer((req, res) => {
    const headers = securityHeaders(port);
    if (!allowedHosts(port).has(req.headers.host ?? "")) {
      res.writeHead(421, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
      res.end("Misdirected request");
      return;
    }
    if (auth === null) {
      res.writeHead(503, headers);
      res.end();
      return;
    }
    if (exchangeToken(auth, req, res, headers)) return;
    if (!auth.hasSession(req)) {
      refuseUnauthenticated(res, headers);
      return;
    }
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    // Browsers send Origin with every POST: only our own page may upload (SameSite=Strict already
    // keeps the cookie off other sites' requests; this also covers pages on other local ports).
    if (pathname === WEB_UPLOAD.path && !allowedOrigins(port).has(req.headers.origin ?? "")) {
      res.writeHead(403, { ...headers, Connection: "close" });
      res.end();
      return;
    }
    const work = pathname === WEB_UPLOAD.path ? upload(req, res, headers) : serveStatic(options.staticDir, req, res, headers);
    work.catch((err: unknown) => {
      log(`${pathname}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500, headers);
      res.end();
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    // Any web page the user visits could open ws://127.0.0.1:<port>: only our own page may, and
    // any local process could forge the Origin header: only one holding the session cookie may.
    const trusted = pathname === API_PATH && allowedHosts(port).has(req.headers.host ?? "") && allowedOrigins(port).has(req.headers.origin ?? "");
    if (!trusted) {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
      return;
    }
    if (auth === null || !auth.hasSession(req)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });

  wss.on("connection", (ws: WebSocket) => {
    // A message over maxPayload closes the connection with 1009 "Message Too Big" and this error.
    ws.on("error", (err) => log(`websocket: ${err.message}`));
    const queue = scheduler.connection();
    ws.on("close", () => queue.close());
    ws.on("message", (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        sendJson(ws, { id: null, result: { ok: false, error: { code: "VALIDATION", message: "Binary messages are not accepted" } } });
        return;
      }
      const read = readMessage(rawText(data));
      if ("refusal" in read) {
        sendJson(ws, read.refusal);
        return;
      }
      const { id, channel, payload } = read.request;
      const admitted = queue.submit(async () => {
        sendJson(ws, { id, result: await dispatcher.dispatch(channel, payload) });
      }, kindOf(channel));
      if (!admitted) {
        sendJson(ws, {
          id,
          result: {
            ok: false,
            error: {
              code: "BUSY",
              message: `Too many requests at once on this connection (more than ${MAX_IN_FLIGHT + MAX_QUEUED}); wait for answers before sending more`,
            },
          },
        });
      }
    });
  });

  try {
    port = await listen(server, options.port);
  } catch (err) {
    if (ownsEngine) await engine.close();
    throw err;
  }
  // Per run: a host restarted on the same port gets a new secret, and old cookies stop working.
  const session = createSessionAuth(port);
  auth = session;
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/?${TOKEN_PARAM}=${session.token}`;
  log(`listening on ${origin}/`);

  let closing: Promise<void> | null = null;
  return {
    url,
    origin,
    cookie: session.cookie,
    close() {
      closing ??= (async () => {
        dispatcher.cancelAll();
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (ownsEngine) await engine.close();
      })();
      return closing;
    },
  };
}
