import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Audit workpapers: an answer or a whole conversation as a file (Markdown unless asked otherwise).

type ExportChannels = "export.answer" | "export.conversation";

export function exportHandlers({ engine }: HandlerContext): FeatureHandlers<ExportChannels> {
  return {
    "export.answer": (params) => engine.exportAnswer(params.logId, params.format ?? "md"),
    "export.conversation": (params) => engine.exportConversation(params.id, params.format ?? "md"),
  };
}
