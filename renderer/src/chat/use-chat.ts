import { useCallback, useRef, useState } from "react";
import type { ClauseGraphApi, ErrorInfo, ExportFile, ExportFormat, Result } from "../../../core/contract/contract.ts";
import { startAsk } from "./ask-client.ts";
import type { RunningAsk } from "./ask-client.ts";
import type { AskResult } from "./ask-types.ts";
import { turnsFromConversation } from "./conversation-turns.ts";

// The conversation's questions and answers, newest last. One ask runs at a time: asking again while
// one streams cancels it, as Esc does. Every answer is recorded in a conversation kept in the
// library (created with the first question), so it can be reopened after a reload or a restart.

export interface ChatTurn {
  id: number;
  question: string;
  status: "asking" | "done" | "failed" | "cancelled";
  streamed: string;
  result?: AskResult;
  error?: ErrorInfo;
  /** What changed since it was answered, in words (a reopened answer whose document was deleted). */
  notes?: string[];
}

export interface Chat {
  turns: ChatTurn[];
  activeId: number | null;
  busy: boolean;
  ask(question: string): void;
  cancel(): boolean;
  select(id: number): void;
  /** The conversation shown (null: a new one, created with its first question). */
  conversationId: string | null;
  /** Shows a kept conversation, every answer as it was given. */
  open(conversationId: string): Promise<void>;
  /** Clears the chat; the next question starts a new conversation. */
  startNew(): void;
  exportAnswer(logId: string, format: ExportFormat): Promise<Result<ExportFile>>;
  exportConversation(format: ExportFormat): Promise<Result<ExportFile>>;
}

let turnCounter = 0;

export function useChat(api: ClauseGraphApi, onAnswer: (turn: ChatTurn & { result: AskResult }) => void): Chat {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [activeId, setActiveId] = useState<number | null>(null);
  const running = useRef<{ id: number; ask: RunningAsk } | null>(null);
  const onAnswerRef = useRef(onAnswer);
  onAnswerRef.current = onAnswer;
  const [conversationId, setConversationId] = useState<string | null>(null);
  // The conversation the next ask goes to; a promise, so two quick questions share one conversation.
  const conversation = useRef<Promise<string | undefined> | null>(null);
  const conversationFor = useCallback((): Promise<string | undefined> => {
    conversation.current ??= api.createConversation({}).then((created) => {
      // Without a conversation the answer still comes; it is only not kept.
      if (!created.ok) return undefined;
      setConversationId(created.value.id);
      return created.value.id;
    });
    return conversation.current;
  }, [api]);

  const patch = useCallback((id: number, change: Partial<ChatTurn>) => {
    setTurns((all) => all.map((t) => (t.id === id ? { ...t, ...change } : t)));
  }, []);

  const cancel = useCallback((): boolean => {
    const current = running.current;
    if (current === null) return false;
    running.current = null;
    current.ask.cancel();
    patch(current.id, { status: "cancelled" });
    return true;
  }, [patch]);

  const ask = useCallback(
    (question: string) => {
      const text = question.trim();
      if (text === "") return;
      cancel();
      const id = ++turnCounter;
      setTurns((all) => [...all, { id, question: text, status: "asking", streamed: "" }]);
      setActiveId(id);
      const handle = startAsk(
        api,
        text,
        (token) => {
          if (running.current?.id !== id) return;
          setTurns((all) => all.map((t) => (t.id === id ? { ...t, streamed: t.streamed + token } : t)));
        },
        conversationFor(),
      );
      running.current = { id, ask: handle };
      void handle.done.then((result) => {
        // A cancelled ask may still answer: it stays cancelled.
        if (running.current?.id !== id) return;
        running.current = null;
        if (result.ok) {
          patch(id, { status: "done", result: result.value });
          onAnswerRef.current({ id, question: text, status: "done", streamed: "", result: result.value });
        } else {
          patch(id, { status: result.error.code === "CANCELLED" ? "cancelled" : "failed", error: result.error });
        }
      });
    },
    [api, cancel, patch, conversationFor],
  );

  const select = useCallback(
    (id: number) => {
      setActiveId(id);
      const turn = turns.find((t) => t.id === id);
      if (turn?.result !== undefined) onAnswerRef.current({ ...turn, result: turn.result });
    },
    [turns],
  );

  const startNew = useCallback(() => {
    cancel();
    conversation.current = null;
    setConversationId(null);
    setTurns([]);
    setActiveId(null);
  }, [cancel]);

  const open = useCallback(
    async (id: string) => {
      const found = await api.getConversation({ id });
      if (!found.ok) return;
      cancel();
      const reopened = turnsFromConversation(found.value, () => ++turnCounter);
      conversation.current = Promise.resolve(id);
      setConversationId(id);
      setTurns(reopened);
      const last = reopened.at(-1);
      setActiveId(last?.id ?? null);
      if (last?.result !== undefined) onAnswerRef.current({ ...last, result: last.result });
    },
    [api, cancel],
  );

  const exportAnswer = useCallback((logId: string, format: ExportFormat) => api.exportAnswer({ logId, format }), [api]);
  const exportConversation = useCallback(
    async (format: ExportFormat): Promise<Result<ExportFile>> => {
      const id = await conversation.current;
      if (id === undefined || id === null) return { ok: false, error: { code: "NOT_FOUND", message: "Ask a question first: there is nothing to export yet." } };
      return api.exportConversation({ id, format });
    },
    [api],
  );

  return {
    turns,
    activeId,
    busy: turns.some((t) => t.status === "asking"),
    ask,
    cancel,
    select,
    conversationId,
    open,
    startNew,
    exportAnswer,
    exportConversation,
  };
}
