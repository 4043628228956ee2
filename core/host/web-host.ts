import { createServer } from "node:http";
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import type { RawData } from "ws";
import { LIMITS, wireRequestSchema } from "../contract/contract.ts";
import type { WireEvent, WireResponse } from "../contract/contract.ts";
import { createDispatcher } from "../contract/dispatch.ts";
import type { Dispatcher } from "../contract/dispatch.ts";
import type { Engine } from "../engine-types.ts";
import { allowedHosts, allowedOrigins, securityHeaders } from "./security-headers.ts";
import { serveStatic } from "./static-files.ts";
import { createUploadStore } from "./upload-store.ts";

// The browser front end of the engine for machines without Electron: the built renderer over
// HTTP and the contract over one WebSocket, on the loopback interface only.

export const API_PATH = "/api";
/** One file's base64 per message (the shim uploads files one by one), plus envelope room. */
const MAX_MESSAGE_BYTES = LIMITS.uploadBase64 + 1024 * 1024;

export interface WebHostOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** Tests may bring their own engine; otherwise the real one is created on dataDir and closed with the host. */
  engine?: Engine;
  log?: (message: string) => void;
}

export interface WebHost {
  url: string;
  close(): Promise<void>;
}

/** Loaded on demand so a host given its own engine (tests) never loads Kuzu and pdf.js. */
async function openEngine(dataDir: string, log: (message: string) => void): Promise<Engine> {
  const { createEngine } = await import("../engine.ts");
  return createEngine({ dataDir, log });
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

/** Turns one incoming message into its response; never throws. */
async function answer(dispatcher: Dispatcher, text: string): Promise<WireResponse> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { id: null, result: { ok: false, error: { code: "VALIDATION", message: "Message is not JSON" } } };
  }
  const request = wireRequestSchema.safeParse(json);
  if (!request.success) {
    return { id: null, result: { ok: false, error: { code: "VALIDATION", message: "Message is not a {id, channel, payload} request" } } };
  }
  return { id: request.data.id, result: await dispatcher.dispatch(request.data.channel, request.data.payload) };
}

function sendJson(socket: WebSocket, message: WireResponse | WireEvent): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const log = options.log ?? (() => {});
  const ownsEngine = options.engine === undefined;
  const engine = options.engine ?? (await openEngine(options.dataDir, log));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const dispatcher = createDispatcher({
    engine,
    uploads: createUploadStore(engine.dataDir),
    emit(event) {
      for (const client of wss.clients) sendJson(client, event);
    },
  });

  let port = 0;
  const server = createServer((req, res) => {
    const headers = securityHeaders(port);
    if (!allowedHosts(port).has(req.headers.host ?? "")) {
      res.writeHead(421, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
      res.end("Misdirected request");
      return;
    }
    serveStatic(options.staticDir, req, res, headers).catch((err: unknown) => {
      log(`static: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500, headers);
      res.end();
    });
  });

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    // Any web page the user visits could open ws://127.0.0.1:<port>: only our own page may.
    const trusted =
      pathname === API_PATH &&
      allowedHosts(port).has(req.headers.host ?? "") &&
      allowedOrigins(port).has(req.headers.origin ?? "");
    if (!trusted) {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });

  wss.on("connection", (ws: WebSocket) => {
    ws.on("error", (err) => log(`websocket: ${err.message}`));
    ws.on("message", (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        sendJson(ws, { id: null, result: { ok: false, error: { code: "VALIDATION", message: "Binary messages are not accepted" } } });
        return;
      }
      void answer(dispatcher, rawText(data)).then((response) => sendJson(ws, response));
    });
  });

  try {
    port = await listen(server, options.port);
  } catch (err) {
    if (ownsEngine) await engine.close();
    throw err;
  }
  const url = `http://127.0.0.1:${port}/`;
  log(`listening on ${url}`);

  let closing: Promise<void> | null = null;
  return {
    url,
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
