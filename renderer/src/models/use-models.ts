import { useCallback, useEffect, useState } from "react";
import type { AnswerLimits, ClauseGraphApi, ErrorInfo, ModelsState } from "../../../core/contract/contract.ts";

// The language models the engine knows and the one it answers with. Selecting loads the model in
// the engine (which can take a while); the previous model keeps answering until the new one is
// ready, and a failure leaves it in place with the reason shown.

export interface Models {
  state: ModelsState | null;
  /** The model id being loaded ("" for "no model"), or "import" while a file is imported. */
  busy: string | null;
  error: ErrorInfo | null;
  refresh(): Promise<void>;
  select(modelId: string | null): Promise<void>;
  importFile(path: string): Promise<boolean>;
  /** Saves the caps on written answers; false (with the error set) when refused. */
  setLimits(limits: AnswerLimits): Promise<boolean>;
}

export function useModels(api: ClauseGraphApi): Models {
  const [state, setState] = useState<ModelsState | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const refresh = useCallback(async () => {
    const result = await api.listModels({});
    if (result.ok) setState(result.value);
    else setError(result.error);
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const select = useCallback(
    async (modelId: string | null) => {
      setBusy(modelId ?? "");
      setError(null);
      const result = await api.selectModel({ modelId });
      setBusy(null);
      if (result.ok) {
        setState(result.value);
        return;
      }
      setError(result.error);
      await refresh();
    },
    [api, refresh],
  );

  const importFile = useCallback(
    async (path: string) => {
      setBusy("import");
      setError(null);
      const result = await api.importModel({ path });
      setBusy(null);
      if (!result.ok) {
        setError(result.error);
        return false;
      }
      await refresh();
      return true;
    },
    [api, refresh],
  );

  const setLimits = useCallback(
    async (limits: AnswerLimits) => {
      setError(null);
      const result = await api.setAnswerLimits(limits);
      if (!result.ok) {
        setError(result.error);
        return false;
      }
      setState(result.value);
      return true;
    },
    [api],
  );

  return { state, busy, error, refresh, select, importFile, setLimits };
}
