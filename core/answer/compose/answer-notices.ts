import type { AnswerNotice } from "../../model/answer-types.ts";

// Why a written answer is cut short or was replaced by quoted sentences, in words an auditor can
// act on. Every fallback path of answer-question.ts produces one: it is shown with the answer (not
// only logged) and recorded as the answer's analysis line in the answer log.

export const NOTE_CONTEXT_TOO_SMALL = "The model's context window is too small for the sources, so the answer is quoted from the documents.";
export const NOTE_NO_CITATIONS = "The model's answer cited none of the sources, so it is not shown; the sentences are quoted from the documents instead.";

/** A cap stopped the model: `quoted` when nothing it wrote could be kept. */
export function capNotice(reason: "time-limit" | "token-limit", limit: number, quoted: boolean): AnswerNotice {
  const cap = reason === "time-limit" ? `the ${limit} s time limit` : `its limit of ${limit} tokens`;
  const message = quoted
    ? `The model was stopped at ${cap} before it had written a cited answer, so the answer is quoted from the documents instead.`
    : `The model was stopped at ${cap}: the answer below is what it had written and verified by then, and may be incomplete.`;
  return { reason, quoted, message };
}

export const NOTE_CLOSEST_PROVISIONS =
  "The library may not answer this directly: these are the provisions closest to the question. Check that they cover it before relying on them.";

/** The library was judged unsure to hold the answer (in-library.ts): the closest provisions are shown, and said to be. */
export function closestNotice(): AnswerNotice {
  return { reason: "closest-provisions", quoted: false, message: NOTE_CLOSEST_PROVISIONS };
}

export function noticeOf(reason: "no-citations" | "context-too-small"): AnswerNotice {
  return { reason, quoted: true, message: reason === "no-citations" ? NOTE_NO_CITATIONS : NOTE_CONTEXT_TOO_SMALL };
}

/** The chosen model could not be loaded, so the answer is quoted. */
export function unavailableNotice(why: string): AnswerNotice {
  return {
    reason: "model-unavailable",
    quoted: true,
    message: `The chosen language model could not be loaded (${why}), so the answer is quoted from the documents.`,
  };
}

/** The notice as the outcome's fields: the analysis line the log records, and the notice shown. */
export function withNotice(notice: AnswerNotice): { analysis: string; notice: AnswerNotice } {
  return { analysis: notice.message, notice };
}
