import type { ErrorInfo } from "../model/errors.ts";
import { unavailableNotice } from "./answer-notices.ts";
import type { AskResult } from "../model/answer-types.ts";

// Which model an answer comes from, as the answer shows it: the model's display name or file name
// (never only its architecture: the header read "LLM llama"), also when it fell back to quoting;
// and when the chosen model could not be loaded at all, a notice saying so instead of a silently
// quoted answer (issue 12).

export interface AnsweringModel {
  /** The model id (manifest id or file name); null without a model. */
  id: string | null;
  name: string | null;
  /** Why the chosen model is not answering, when it failed to load. */
  failure: ErrorInfo | null;
}

export function labelAnswer(result: AskResult, model: AnsweringModel): AskResult {
  if (model.id !== null) return { ...result, model: { id: model.id, name: model.name ?? model.id } };
  if (model.failure === null || result.notice !== undefined) return result;
  const notice = unavailableNotice(model.failure.message);
  return { ...result, notice, analysis: result.analysis ?? notice.message };
}
