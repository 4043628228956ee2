import type { DocumentRecord, ExportFile, ExportFormat, Result } from "../../../core/contract/contract.ts";
import type { CitationTrail } from "./citation-trail.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { AnswerOrigin } from "./answer-origin.tsx";
import { AnswerView } from "./answer-view.tsx";
import type { AskCitation } from "./ask-types.ts";
import { ExportButtons } from "./export-buttons.tsx";
import type { ChatTurn } from "./use-chat.ts";

interface Props {
  turn: ChatTurn;
  active: boolean;
  documents: ReadonlyMap<string, DocumentRecord>;
  activeSectionId: string | null;
  onSelect(): void;
  onExportAnswer(logId: string, format: ExportFormat): Promise<Result<ExportFile>>;
  onOpenCitation(citation: AskCitation, emphasis?: { start: number; end: number }, trail?: CitationTrail): void;
}

export function ChatTurnView({ turn, active, documents, activeSectionId, onSelect, onOpenCitation, onExportAnswer }: Props) {
  const result = turn.status === "done" ? turn.result : undefined;
  const logId = result?.logId;
  // Reading an older answer's citation makes it the answer looked at: the graph follows it.
  const openCitation: Props["onOpenCitation"] = (citation, emphasis, trail) => {
    if (!active) onSelect();
    onOpenCitation(citation, emphasis, trail);
  };
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
      {turn.status === "done" && turn.result !== undefined ? <AnswerOrigin result={turn.result} /> : null}
      {turn.status === "done" && turn.result !== undefined ? (
        <AnswerView result={turn.result} documents={documents} activeSectionId={activeSectionId} onOpenCitation={openCitation} />
      ) : null}
      {(turn.notes ?? []).map((note) => (
        <p key={note} className="turn-note small" data-testid="turn-note">
          {/* A date is never broken at its hyphens. */}
          {note.split(/(\d{4}-\d{2}-\d{2})/).map((part, i) =>
            i % 2 === 1 ? (
              <span key={i} className="nowrap">
                {part}
              </span>
            ) : (
              part
            ),
          )}
        </p>
      ))}
      {result === undefined ? null : (
        <div className="turn-tools">
          {result.followUp === undefined ? null : (
            <span className="muted small follow-up" data-testid="follow-up" title={result.followUp.reason}>
              Follow-up: searched as “{result.followUp.question}”
            </span>
          )}
          <span className="spacer" />
          {logId === undefined ? null : <ExportButtons what="this answer" testId="export-answer" run={(format) => onExportAnswer(logId, format)} />}
        </div>
      )}
      {turn.status === "cancelled" ? (
        <p className="muted small" data-testid="answer-cancelled">
          Stopped.{turn.streamed !== "" ? ` Partial answer: ${turn.streamed}` : ""}
        </p>
      ) : null}
      {turn.status === "failed" && turn.error !== undefined ? <ErrorMessage error={turn.error} testId="answer-error" /> : null}
    </li>
  );
}
