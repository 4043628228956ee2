import { ClauseGraphError } from "../model/errors.ts";

export function throwIfCancelled(signal: AbortSignal | undefined, file: string): void {
  if (signal?.aborted === true) {
    throw new ClauseGraphError("CANCELLED", "Import cancelled.", { file });
  }
}
