import type { ClauseGraphApi, Result } from "../../../core/contract/contract.ts";
import type { AskResult } from "./ask-types.ts";

// The one place the chat meets the `ask` channel: start an ask, receive its streamed tokens,
// cancel it.

export interface RunningAsk {
  done: Promise<Result<AskResult>>;
  cancel(): void;
}

let counter = 0;

/** Starts an ask with an id of our own, so its streamed tokens can be told apart and it can be cancelled at once. */
export function startAsk(api: ClauseGraphApi, question: string, onToken: (text: string) => void): RunningAsk {
  counter += 1;
  const askId = `ask-${Date.now().toString(36)}-${counter}`;
  const unsubscribe = api.onAskToken((token) => {
    if (token.askId === askId) onToken(token.text);
  });
  const done = api.ask({ question, askId }).finally(unsubscribe);
  return {
    done,
    cancel: () => {
      void api.cancelJob({ jobId: askId });
    },
  };
}
