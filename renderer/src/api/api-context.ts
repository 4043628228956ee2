import { createContext, useContext } from "react";
import type { ClauseGraphApi } from "../../../core/contract/contract.ts";

// Components get the API from context rather than a global, so a test or a later story can pass another.
export const ApiContext = createContext<ClauseGraphApi | null>(null);

export function useApi(): ClauseGraphApi {
  const api = useContext(ApiContext);
  if (api === null) throw new Error("useApi() outside <ApiContext.Provider>");
  return api;
}
