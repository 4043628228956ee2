import type { Conversation } from "../../../core/contract/contract.ts";
import type { ChatTurn } from "./use-chat.ts";

// A reopened conversation as chat turns: each answer exactly as it was given (from the answer
// log), with what changed since in words (a cited document deleted).

export function turnsFromConversation(conversation: Conversation, nextId: () => number): ChatTurn[] {
  return conversation.turns.map((turn) => ({
    id: nextId(),
    question: turn.question,
    streamed: "",
    ...(turn.result === null
      ? { status: "failed" as const, error: { code: "NOT_FOUND" as const, message: turn.notes[0] ?? "This answer is no longer in the answer log." } }
      : { status: "done" as const, result: turn.result }),
    notes: turn.result === null ? [] : turn.notes,
  }));
}
