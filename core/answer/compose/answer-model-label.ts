import type { ErrorInfo } from "../../model/errors.ts";
import { unavailableNotice } from "./answer-notices.ts";
import type { AskResult } from "../../model/answer-types.ts";

// Which model an answer comes from, as the answer shows it: the model's display name or file name
// (never only its architecture: the header read "LLM llama"), also when it fell back to quoting;
// and when the chosen model could not be loaded at all, a notice saying so instead of a silently
// quoted answer.

export interface AnsweringModel {
  /** The model id (manifest id or file name); null without a model. */
  id: string | null;
  name: string | null;
  /** Why the chosen model is not answering, when it failed to load. */
  failure: ErrorInfo | null;
}

export function labelAnswer(result: AskResult, model: AnsweringModel): AskResult {
  if (model.id !== null) return { ...result, model: { id: model.id, name: model.name ?? model.id } };
  if (model.failure === null) return result;
  // A model that could not be loaded is said first; that the answer is only the closest provisions
  // (in-library.ts) is said with it. Any other notice already explains the answer.
  const closest = result.notice?.reason === "closest-provisions" ? result.notice : undefined;
  if (result.notice !== undefined && closest === undefined) return result;
  const unavailable = unavailableNotice(model.failure.message);
  const notice = closest === undefined ? unavailable : { ...unavailable, message: `${unavailable.message} ${closest.message}` };
  const analysis = result.analysis === undefined || result.analysis === closest?.message ? notice.message : result.analysis;
  return { ...result, notice, analysis };
}
