import type { ChatTurn } from "./use-chat.ts";

interface Props {
  turns: ChatTurn[];
  activeId: number | null;
  onSelect(id: number): void;
}

/** This session's questions, newest first; picking one brings back its answer and graph. */
export function HistoryList({ turns, activeId, onSelect }: Props) {
  if (turns.length === 0) return <p className="empty">Questions you ask in this session are listed here.</p>;
  return (
    <ol className="history-list" data-testid="history-list">
      {[...turns].reverse().map((t) => (
        <li key={t.id}>
          <button
            type="button"
            className={t.id === activeId ? "history-item active" : "history-item"}
            data-testid="history-item"
            onClick={() => onSelect(t.id)}
          >
            <span className="history-question">{t.question}</span>
            <span className="muted small">
              {t.status === "done" ? `${t.result?.citations.length ?? 0} citations` : t.status === "asking" ? "answering…" : t.status}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
