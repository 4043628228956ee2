// The only two IPC channel names between the renderer and main: every contract request goes
// through one invoke channel (the engine's dispatcher validates it), every push through one event.
export const IPC_INVOKE = "clausegraph:invoke";
export const IPC_EVENT = "clausegraph:event";
