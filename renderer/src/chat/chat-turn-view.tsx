import type { DocumentRecord } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { AnswerView } from "./answer-view.tsx";
import type { AskCitation } from "./ask-types.ts";
import type { ChatTurn } from "./use-chat.ts";

interface Props {
  turn: ChatTurn;
  active: boolean;
  documents: ReadonlyMap<string, DocumentRecord>;
  activeSectionId: string | null;
  onSelect(): void;
  onOpenCitation(citation: AskCitation): void;
}

export function ChatTurnView({ turn, active, documents, activeSectionId, onSelect, onOpenCitation }: Props) {
  return (
    <li className={active ? "chat-turn active" : "chat-turn"} data-testid="chat-turn" data-status={turn.status} data-turn-id={turn.id}>
      <button type="button" className="question" onClick={onSelect} title="Show this answer's graph">
        {turn.question}
      </button>
      {turn.status === "asking" ? (
        <div className="answer streaming" data-testid="answer-streaming" aria-live="polite">
          <p>
            {turn.streamed === "" ? <span className="muted">Looking through the library… </span> : turn.streamed}
            <span className="caret" aria-hidden="true" />
          </p>
        </div>
      ) : null}
      {turn.status === "done" && turn.result !== undefined ? (
        <AnswerView result={turn.result} documents={documents} activeSectionId={activeSectionId} onOpenCitation={onOpenCitation} />
      ) : null}
      {turn.status === "cancelled" ? (
        <p className="muted small" data-testid="answer-cancelled">
          Stopped.{turn.streamed !== "" ? ` Partial answer: ${turn.streamed}` : ""}
        </p>
      ) : null}
      {turn.status === "failed" && turn.error !== undefined ? <ErrorMessage error={turn.error} testId="answer-error" /> : null}
    </li>
  );
}
