import type { ClauseGraphApi } from "../../../core/contract/contract.ts";
import { apiUrl, createBrowserApi } from "./browser-shim.ts";

/** The preload's API in Electron, else the WebSocket shim talking to the web host that served us. */
export function getApi(): ClauseGraphApi {
  return window.clausegraph ?? createBrowserApi(apiUrl(window.location));
}
