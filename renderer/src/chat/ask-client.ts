import type { ClauseGraphApi, Result } from "../../../core/contract/contract.ts";
import type { AskResult } from "./ask-types.ts";

// The one place the chat meets the `ask` channel: start an ask, receive its streamed tokens,
// cancel it.

export interface RunningAsk {
  done: Promise<Result<AskResult>>;
  cancel(): void;
}

let counter = 0;

/**
 * Starts an ask with an id of our own, so its streamed tokens can be told apart and it can be
 * cancelled at once. `conversation` resolves to the conversation to record it in (undefined: none).
 */
export function startAsk(
  api: ClauseGraphApi,
  question: string,
  onToken: (text: string) => void,
  conversation: Promise<string | undefined> = Promise.resolve(undefined),
): RunningAsk {
  counter += 1;
  const askId = `ask-${Date.now().toString(36)}-${counter}`;
  let cancelled = false;
  const unsubscribe = api.onAskToken((token) => {
    if (token.askId === askId) onToken(token.text);
  });
  const done = conversation
    .then((conversationId): Promise<Result<AskResult>> =>
      // Stopped while the conversation was being created: the question is never sent.
      cancelled
        ? Promise.resolve({ ok: false, error: { code: "CANCELLED", message: "Stopped." } })
        : api.ask({ question, askId, ...(conversationId === undefined ? {} : { conversationId }) }),
    )
    .finally(unsubscribe);
  return {
    done,
    cancel: () => {
      cancelled = true;
      void api.cancelJob({ jobId: askId });
    },
  };
}
