import { useState } from "react";
import { ErrorMessage } from "../common/error-message.tsx";
import { plural } from "../lib/format.ts";
import type { ConversationList as ConversationListState } from "./use-conversations.ts";

interface Props {
  list: ConversationListState;
  activeId: string | null;
  onOpen(id: string): void;
  onNew(): void;
  /** After a delete went through (the chat forgets the conversation if it showed it). */
  onDeleted(id: string): void;
}

/** "2026-11-25 14:03" in the user's time zone: when the conversation last had an answer. */
function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The library's conversations, newest first: search, reopen, delete (after a confirmation), start a new one. */
export function ConversationList({ list, activeId, onOpen, onNew, onDeleted }: Props) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const query = list.query.trim();
  return (
    <div className="conversation-list" data-testid="conversation-list">
      <div className="conversation-tools">
        <input
          type="search"
          aria-label="Search conversations"
          placeholder="Search questions and answers"
          data-testid="conversation-search"
          value={list.query}
          maxLength={2000}
          onChange={(e) => list.setQuery(e.currentTarget.value)}
        />
        <button type="button" className="primary small" data-testid="new-conversation" onClick={onNew}>
          New conversation
        </button>
      </div>
      {list.error === null ? null : <ErrorMessage error={list.error} testId="conversation-error" />}
      {!list.loading && list.items.length === 0 ? (
        <p className="empty" data-testid="conversations-empty">
          {query === ""
            ? "No conversations yet. Your questions and their answers are kept here, in the library, and come back after a restart."
            : `No conversation mentions “${query}”.`}
        </p>
      ) : null}
      <ol className="history-list">
        {list.items.map((c) => (
          <li key={c.id} className="conversation-row" data-testid="conversation-item" data-conversation-id={c.id}>
            <button
              type="button"
              className={c.id === activeId ? "history-item active" : "history-item"}
              data-testid="open-conversation"
              aria-current={c.id === activeId ? "true" : undefined}
              onClick={() => onOpen(c.id)}
            >
              <span className="history-question">{c.title}</span>
              <span className="muted small">
                {plural(c.turnCount, "answer")} · {when(c.updatedAt)}
              </span>
            </button>
            {confirming === c.id ? (
              <span className="confirm-delete">
                <button
                  type="button"
                  className="danger small"
                  data-testid="confirm-delete-conversation"
                  onClick={() => {
                    setConfirming(null);
                    void list.remove(c.id).then((deleted) => {
                      if (deleted) onDeleted(c.id);
                    });
                  }}
                >
                  Delete
                </button>
                <button type="button" className="quiet small" onClick={() => setConfirming(null)}>
                  Keep
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="quiet small"
                data-testid="delete-conversation"
                title="Delete this conversation (its answers stay in the library's answer log)"
                aria-label={`Delete conversation “${c.title}”`}
                onClick={() => setConfirming(c.id)}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
