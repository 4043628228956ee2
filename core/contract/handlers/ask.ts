import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Questions: searching the library, asking (the answer's tokens streamed as ask.token events, the
// ask id cancelling it through jobs.cancel), and the log of past answers.

type AskChannels = "search" | "ask" | "answers.log";

export function askHandlers({ engine, emit, jobs }: HandlerContext): FeatureHandlers<AskChannels> {
  return {
    search: (params) => {
      const { query, k } = params;
      return engine.search(query, k === undefined ? {} : { k });
    },
    ask: (params) => {
      const { question, k, askId, conversationId } = params;
      const controller = new AbortController();
      return jobs.runWithId(askId, controller, () =>
        engine.ask(question, {
          ...(k === undefined ? {} : { k }),
          ...(conversationId === undefined ? {} : { conversationId }),
          signal: controller.signal,
          ...(askId === undefined ? {} : { onToken: (text: string) => emit({ event: "ask.token", payload: { askId, text } }) }),
        }),
      );
    },
    "answers.log": (params) => engine.answerLog(params.limit === undefined ? {} : { limit: params.limit }),
  };
}
