import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

// Serves the built renderer and nothing else: no directory listings, no paths outside the folder.
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>ClauseGraph</title>
<p>The ClauseGraph interface has not been built yet. Run <code>npm run build</code>, then reload.</p>`;

/** Resolves a URL path to a file inside root, or null when it would escape it or is malformed. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const relative = decoded === "/" || decoded === "" ? "index.html" : decoded.replace(/^\/+/, "");
  const absolute = path.resolve(root, relative);
  const inside = path.relative(root, absolute);
  if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside)) return null;
  return absolute;
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, "Content-Type": type, "Cache-Control": "no-store" });
  res.end(body);
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    send(res, 405, "text/plain; charset=utf-8", "Method not allowed", { ...headers, Allow: "GET, HEAD" });
    return;
  }
  const urlPath = new URL(req.url ?? "/", "http://localhost").pathname;
  const file = resolveStaticPath(root, urlPath);
  if (file === null) {
    send(res, 404, "text/plain; charset=utf-8", "Not found", headers);
    return;
  }
  const info = await stat(file).catch(() => null);
  if (info === null || !info.isFile()) {
    if (path.basename(file) === "index.html") send(res, 503, "text/html; charset=utf-8", NOT_BUILT, headers);
    else send(res, 404, "text/plain; charset=utf-8", "Not found", headers);
    return;
  }
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
  // Vite fingerprints asset names, so only the HTML must be revalidated on every load.
  const cache = type.startsWith("text/html") ? "no-cache" : "public, max-age=31536000, immutable";
  res.writeHead(200, { ...headers, "Content-Type": type, "Content-Length": String(info.size), "Cache-Control": cache });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  createReadStream(file)
    .on("error", () => res.destroy())
    .pipe(res);
}
