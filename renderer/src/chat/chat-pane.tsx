import { useEffect, useRef } from "react";
import type { CitationTrail } from "./citation-trail.ts";
import type { Ref } from "react";
import type { DocumentRecord } from "../../../core/contract/contract.ts";
import type { AskCitation } from "./ask-types.ts";
import { ChatTurnView } from "./chat-turn-view.tsx";
import { ExportButtons } from "./export-buttons.tsx";
import { QuestionBox } from "./question-box.tsx";
import type { Chat } from "./use-chat.ts";

interface Props {
  chat: Chat;
  documents: ReadonlyMap<string, DocumentRecord>;
  activeSectionId: string | null;
  onOpenCitation(citation: AskCitation, emphasis?: { start: number; end: number }, trail?: CitationTrail): void;
  questionRef: Ref<HTMLTextAreaElement>;
}

export function ChatPane({ chat, documents, activeSectionId, onOpenCitation, questionRef }: Props) {
  const thread = useRef<HTMLOListElement>(null);
  const last = chat.turns[chat.turns.length - 1];
  // Follow the newest answer while it streams in.
  useEffect(() => {
    const element = thread.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [chat.turns.length, last?.streamed, last?.status]);

  return (
    <section className="pane chat-pane" aria-labelledby="chat-title" data-testid="chat-pane">
      <header className="pane-header">
        <h2 id="chat-title">Ask</h2>
        <span className="chat-actions">
          {chat.conversationId !== null && chat.turns.some((t) => t.result?.logId !== undefined) ? (
            <ExportButtons what="this conversation" testId="export-conversation" run={chat.exportConversation} />
          ) : null}
          <button
            type="button"
            className="quiet small"
            data-testid="chat-new-conversation"
            disabled={chat.turns.length === 0}
            onClick={chat.startNew}
            title="Start a new conversation (this one stays in the Conversations tab)"
          >
            New conversation
          </button>
        </span>
      </header>
      {chat.turns.length === 0 ? (
        <div className="chat-empty empty">
          <p>Ask a question about the documents in your library. Every answer cites the sections and pages it rests on.</p>
        </div>
      ) : null}
      <ol ref={thread} className="chat-thread" aria-live="polite">
        {chat.turns.map((turn) => (
          <ChatTurnView
            key={turn.id}
            turn={turn}
            active={turn.id === chat.activeId}
            documents={documents}
            activeSectionId={activeSectionId}
            onSelect={() => chat.select(turn.id)}
            onExportAnswer={chat.exportAnswer}
            onOpenCitation={onOpenCitation}
          />
        ))}
      </ol>
      <QuestionBox ref={questionRef} busy={chat.busy} onAsk={chat.ask} onCancel={() => chat.cancel()} />
    </section>
  );
}
