import { app, BrowserWindow, ipcMain, session } from "electron";
import type { IpcMainInvokeEvent, WebFrameMain } from "electron";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Result } from "../core/contract/contract.ts";
import { defaultDataDir } from "../core/host/data-dir.ts";
import { createEngineClient } from "./engine-client.ts";
import { IPC_EVENT, IPC_GRANT_PATH, IPC_INVOKE } from "./ipc-channels.ts";
import { isOwnUrl } from "./request-policy.ts";

// Main only creates the window, enforces the security policy and routes messages between the
// renderer and the engine process. Nothing here parses documents or touches the database.

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.resolve(here, "../renderer");
const rendererUrl = pathToFileURL(path.join(rendererDir, "index.html"));

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function isTrustedSender(frame: WebFrameMain | null): boolean {
  if (frame === null || frame.parent !== null) return false;
  try {
    const url = new URL(frame.url);
    return url.protocol === "file:" && url.pathname === rendererUrl.pathname;
  } catch {
    return false;
  }
}

function harden(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isOwnUrl(details.url, rendererDir) }));
  ses.webRequest.onHeadersReceived((details, callback) => callback({ responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [CSP] } }));
  app.on("web-contents-created", (_event, contents) => {
    contents.on("will-navigate", (event) => event.preventDefault());
    contents.on("will-redirect", (event) => event.preventDefault());
    contents.on("will-attach-webview", (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: "deny" }));
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 800,
    minHeight: 500,
    title: "ClauseGraph",
    show: false,
    webPreferences: {
      preload: path.join(here, "preload.cjs"),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click opens links in a new window without a "new-window" check (electronegativity).
      disableBlinkFeatures: "Auxclick",
    },
  });
  win.once("ready-to-show", () => win.show());
  void win.loadURL(rendererUrl.href);
  return win;
}

function main(): void {
  // Kuzu takes an exclusive lock on the library: a second instance just focuses the first.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();

  const engine = createEngineClient({
    entry: path.join(here, "engine-process.js"),
    dataDir: path.resolve(argValue("--data-dir") ?? defaultDataDir()),
    onEvent(event) {
      for (const win of BrowserWindow.getAllWindows()) win.webContents.send(IPC_EVENT, event);
    },
    log: (message) => console.error(`[clausegraph] ${message}`),
  });

  ipcMain.handle(IPC_INVOKE, (event: IpcMainInvokeEvent, channel: unknown, payload: unknown): Promise<Result<unknown>> => {
    if (!isTrustedSender(event.senderFrame)) {
      return Promise.resolve({ ok: false, error: { code: "VALIDATION", message: "Request from an untrusted frame" } });
    }
    return engine.invoke(channel, payload);
  });

  // A path the user dropped or picked (see preload.ts): the engine may import it by path.
  ipcMain.on(IPC_GRANT_PATH, (event, filePath: unknown) => {
    if (!isTrustedSender(event.senderFrame) || typeof filePath !== "string") return;
    engine.grantPaths([filePath]);
  });

  app.on("second-instance", () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on("window-all-closed", () => app.quit());

  let closing = false;
  app.on("will-quit", (event) => {
    if (closing) return;
    // Let the engine close Kuzu cleanly before the process goes away.
    event.preventDefault();
    closing = true;
    void engine.shutdown(5000).finally(() => app.quit());
  });

  void app.whenReady().then(() => {
    harden();
    createWindow();
    app.on("activate", () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });
}

main();
