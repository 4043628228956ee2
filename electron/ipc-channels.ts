// The IPC channel names between the renderer and main: every contract request goes
// through one invoke channel (the engine's dispatcher validates it), every push through one event.
export const IPC_INVOKE = "clausegraph:invoke";
export const IPC_EVENT = "clausegraph:event";
/** Preload → main: the path of a file the user dropped or picked, which the engine may then import. */
export const IPC_GRANT_PATH = "clausegraph:grant-path";
