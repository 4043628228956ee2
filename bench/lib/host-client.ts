import { request } from "node:http";
import { WebSocket } from "ws";
import { WEB_UPLOAD } from "../../core/contract/contract.ts";
import type { WebHost } from "../../core/host/web-host.ts";

// A client of a running web host as the browser is one: pages over HTTP and the contract over the
// WebSocket, both with the session cookie; uploads POSTed like the renderer does. The robustness
// checks use it to see whether the host keeps answering while a hostile file is being imported.

export interface HttpReply {
  status: number;
  body: string;
  ms: number;
}

export interface HostClient {
  /** GET a page; rejects after timeoutMs. */
  get(pathname: string, timeoutMs?: number): Promise<HttpReply>;
  /** One contract request; resolves with its `result`, rejects after timeoutMs. */
  call(channel: string, payload: unknown, timeoutMs?: number): Promise<unknown>;
  /** Uploads bytes as a file named `name` and imports it; resolves with the JSON reply. */
  upload(name: string, bytes: Buffer): Promise<unknown>;
  /** Every event received so far (job.progress, …). */
  readonly events: unknown[];
  close(): void;
}

function httpRequest(
  host: WebHost,
  options: { method: string; path: string; headers: Record<string, string>; body?: Buffer; timeoutMs: number },
): Promise<HttpReply> {
  const { hostname, port } = new URL(host.origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, method: options.method, path: options.path, headers: { Cookie: host.cookie, ...options.headers }, timeout: options.timeoutMs },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

export async function connectHost(host: WebHost): Promise<HostClient> {
  const ws = new WebSocket(`${host.origin.replace("http:", "ws:")}/api`, { origin: host.origin, headers: { Cookie: host.cookie } });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const pending = new Map<string, (result: unknown) => void>();
  const events: unknown[] = [];
  ws.on("message", (data) => {
    const message: unknown = JSON.parse(String(data));
    if (typeof message !== "object" || message === null) return;
    if ("event" in message) events.push(message);
    else if ("id" in message && typeof message.id === "string" && "result" in message) pending.get(message.id)?.(message.result);
  });
  let next = 0;
  return {
    events,
    get: (pathname, timeoutMs = 5000) => httpRequest(host, { method: "GET", path: pathname, headers: {}, timeoutMs }),
    call(channel, payload, timeoutMs = 5000) {
      const id = `req-${++next}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${channel}: no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, (result) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(result);
        });
        ws.send(JSON.stringify({ id, channel, payload }));
      });
    },
    async upload(name, bytes) {
      const path = `${WEB_UPLOAD.path}?${WEB_UPLOAD.nameParam}=${encodeURIComponent(name)}`;
      const reply = await httpRequest(host, {
        method: "POST",
        path,
        headers: { Origin: host.origin, "Content-Length": String(bytes.length) },
        body: bytes,
        timeoutMs: 10 * 60_000,
      });
      return JSON.parse(reply.body);
    },
    close: () => ws.close(),
  };
}
