import { askHandlers } from "./ask.ts";
import { compareHandlers } from "./compare.ts";
import { conversationHandlers } from "./conversations.ts";
import { documentHandlers } from "./documents.ts";
import { exportHandlers } from "./export.ts";
import { graphHandlers } from "./graph.ts";
import type { HandlerContext, Handlers } from "./handler-types.ts";
import { jobHandlers } from "./jobs.ts";
import { libraryHandlers } from "./library.ts";
import { modelHandlers } from "./models.ts";
import { ocrHandlers } from "./ocr.ts";

// Every feature's handlers in one map. Typed `Handlers`: a channel of the contract that no feature
// handles is a compile error here.

export function createHandlers(context: HandlerContext): Handlers {
  return {
    ...documentHandlers(context),
    ...libraryHandlers(context),
    ...ocrHandlers(context),
    ...askHandlers(context),
    ...conversationHandlers(context),
    ...modelHandlers(context),
    ...graphHandlers(context),
    ...compareHandlers(context),
    ...exportHandlers(context),
    ...jobHandlers(context),
  };
}
