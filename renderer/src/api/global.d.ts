import type { ClauseGraphApi } from "../../../core/contract/contract.ts";

// Electron's preload puts the API here; in the web host it is absent and the shim stands in.
declare global {
  interface Window {
    clausegraph?: ClauseGraphApi;
  }
}
