import { createApi, requestSchemas, resultSchema, WEB_UPLOAD, wireEventSchema, wireResponseSchema } from "../../../core/contract/contract.ts";
import type { ApiTransport, Channel, ClauseGraphApi, WireEvent } from "../../../core/contract/contract.ts";

// The ClauseGraphApi over the web host's WebSocket, for when no Electron preload provided one.
// It connects lazily and reconnects on the next call after a drop, so a restarted host recovers.

interface Pending {
  resolve(value: unknown): void;
  reject(reason: Error): void;
}

export function apiUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api`;
}

export function createWebSocketTransport(url: string): ApiTransport {
  const pending = new Map<number, Pending>();
  const listeners = new Set<(message: WireEvent) => void>();
  let nextId = 1;
  let socket: Promise<WebSocket> | null = null;

  const onMessage = (event: MessageEvent): void => {
    if (typeof event.data !== "string") return;
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return;
    }
    const response = wireResponseSchema.safeParse(json);
    if (response.success && typeof response.data.id === "number") {
      const waiter = pending.get(response.data.id);
      pending.delete(response.data.id);
      waiter?.resolve(response.data.result);
      return;
    }
    const pushed = wireEventSchema.safeParse(json);
    if (pushed.success) for (const listener of listeners) listener(pushed.data);
  };

  const connect = (): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.addEventListener("open", () => resolve(ws), { once: true });
      ws.addEventListener("message", onMessage);
      ws.addEventListener("close", () => {
        socket = null;
        reject(new Error("connection closed"));
        for (const waiter of pending.values()) waiter.reject(new Error("the connection to ClauseGraph was lost"));
        pending.clear();
      });
    });

  const open = (): Promise<WebSocket> => {
    socket ??= connect();
    return socket;
  };

  return {
    async invoke(channel: Channel, payload: unknown) {
      const ws = await open();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, channel, payload }));
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      // Events only flow over an open socket: subscribing is a reason to connect.
      void open().catch(() => undefined);
      return () => listeners.delete(listener);
    },
  };
}

const uploadResultSchema = resultSchema(requestSchemas["documents.upload"].result);

/**
 * A file's bytes as an HTTP POST the browser streams from disk: nothing is read into this page's
 * memory, and the host writes it to disk as it arrives (upload-endpoint.ts). The session cookie
 * goes with it (same origin).
 */
const uploadFile: NonNullable<ClauseGraphApi["uploadFile"]> = async (file, { name, password, jobId, ocr, ocrLanguage, signal }) => {
  const headers: Record<string, string> = { "Content-Type": "application/octet-stream" };
  // Header values must be Latin-1: a password in any script travels percent-encoded.
  if (password !== undefined) headers[WEB_UPLOAD.passwordHeader] = encodeURIComponent(password);
  let raw: unknown;
  try {
    const query = new URLSearchParams({
      [WEB_UPLOAD.nameParam]: name,
      ...(jobId === undefined ? {} : { [WEB_UPLOAD.jobIdParam]: jobId }),
      ...(ocr === undefined ? {} : { [WEB_UPLOAD.ocrParam]: ocr }),
      ...(ocrLanguage === undefined ? {} : { [WEB_UPLOAD.ocrLanguageParam]: ocrLanguage }),
    });
    const response = await fetch(`${WEB_UPLOAD.path}?${query.toString()}`, {
      method: "POST",
      body: file,
      headers,
      credentials: "same-origin",
      ...(signal === undefined ? {} : { signal }),
    });
    raw = await response.json();
  } catch (err) {
    return { ok: false, error: { code: "INTERNAL", message: `The upload did not reach ClauseGraph: ${err instanceof Error ? err.message : String(err)}` } };
  }
  const parsed = uploadResultSchema.safeParse(raw);
  return parsed.success ? parsed.data : { ok: false, error: { code: "INTERNAL", message: "Malformed response to an upload" } };
};

export function createBrowserApi(url: string): ClauseGraphApi {
  return { ...createApi(createWebSocketTransport(url)), uploadFile };
}
