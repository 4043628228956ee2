import { isClauseGraphError } from "../../core/model/errors.ts";

/** The ClauseGraphError code a promise rejects with, or "resolved" / "untyped: …" otherwise. */
export async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (err) {
    return isClauseGraphError(err) ? err.code : `untyped: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Same for a synchronous call. */
export function thrownCode(fn: () => unknown): string {
  try {
    fn();
    return "returned";
  } catch (err) {
    return isClauseGraphError(err) ? err.code : `untyped: ${err instanceof Error ? err.message : String(err)}`;
  }
}
