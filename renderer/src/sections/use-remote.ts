import { useEffect, useState } from "react";
import type { ErrorInfo, Result } from "../../../core/contract/contract.ts";

export type Remote<T> = { kind: "loading" } | { kind: "ready"; value: T } | { kind: "failed"; error: ErrorInfo };

/** Loads one value for the given key; a stale answer for an earlier key is dropped. */
export function useRemote<T>(key: string, load: () => Promise<Result<T>>): Remote<T> {
  const [state, setState] = useState<{ key: string; remote: Remote<T> }>({ key, remote: { kind: "loading" } });
  useEffect(() => {
    let current = true;
    void load().then((result) => {
      if (!current) return;
      setState({ key, remote: result.ok ? { kind: "ready", value: result.value } : { kind: "failed", error: result.error } });
    });
    return () => {
      current = false;
    };
    // `load` is a fresh closure every render; the key says when to load again.
  }, [key]);
  return state.key === key ? state.remote : { kind: "loading" };
}
