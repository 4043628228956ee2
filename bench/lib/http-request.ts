import { createReadStream } from "node:fs";
import { request } from "node:http";

// One HTTP request to the local web host as a benchmark or test sends it: optional Cookie and
// Origin headers, a body from memory or streamed from a file (an upload), the whole answer as text.

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Streamed as the body (an upload); the host may answer and close before all of it is sent. */
  file?: string;
  /** With `file`: destroys the request this many ms after the first chunk (a client that gives up). */
  abortAfter?: number;
  /** A slow client: sends `bytes` bytes one at a time, every `everyMs`, until answered. */
  drip?: { bytes: number; everyMs: number };
}

export function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    const { drip } = options;
    if (drip !== undefined) {
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= drip.bytes || req.destroyed) {
          clearInterval(timer);
          if (sent >= drip.bytes) req.end();
          return;
        }
        sent += 1;
        req.write(Buffer.from([0x25]));
      }, drip.everyMs);
      req.once("response", () => clearInterval(timer));
      req.once("close", () => clearInterval(timer));
      return;
    }
    if (options.file === undefined) {
      req.end(options.body);
      return;
    }
    const source = createReadStream(options.file).on("error", reject);
    source.pipe(req);
    const { abortAfter } = options;
    if (abortAfter !== undefined) source.once("data", () => setTimeout(() => req.destroy(), abortAfter));
  });
}
