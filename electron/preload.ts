// First, before any schema exists: see zod-jitless.ts.
import "./zod-jitless.ts";
import { contextBridge, ipcRenderer, webUtils } from "electron";
import type { IpcRendererEvent } from "electron";
import { createApi, wireEventSchema } from "../core/contract/contract.ts";
import type { ClauseGraphApi, WireEvent } from "../core/contract/contract.ts";
import { IPC_EVENT, IPC_GRANT_PATH, IPC_INVOKE } from "./ipc-channels.ts";

// The renderer's whole view of the system: the named ClauseGraphApi, nothing else (no ipcRenderer,
// no Node). Sandboxed, so it is bundled to one CommonJS file with the contract inside.

const api = {
  ...createApi({
    invoke: (channel, payload) => ipcRenderer.invoke(IPC_INVOKE, channel, payload),
    subscribe(listener: (message: WireEvent) => void) {
      const handler = (_event: IpcRendererEvent, message: unknown): void => {
        const parsed = wireEventSchema.safeParse(message);
        if (parsed.success) listener(parsed.data);
      };
      ipcRenderer.on(IPC_EVENT, handler);
      return () => {
        ipcRenderer.removeListener(IPC_EVENT, handler);
      };
    },
  }),
  // Dropped and picked files carry their real path only here (Electron removed File.path). Only
  // such a path may be imported by path: it is granted to the engine before the renderer can ask
  // (IPC messages from one renderer arrive in order). A File made up by a script has no path.
  pathForFile: (file: object): string => {
    const filePath = file instanceof File ? webUtils.getPathForFile(file) : "";
    if (filePath !== "") ipcRenderer.send(IPC_GRANT_PATH, filePath);
    return filePath;
  },
} satisfies ClauseGraphApi;

contextBridge.exposeInMainWorld("clausegraph", api);
