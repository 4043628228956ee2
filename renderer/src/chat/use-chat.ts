import { useCallback, useRef, useState } from "react";
import type { ClauseGraphApi, ErrorInfo } from "../../../core/contract/contract.ts";
import { startAsk } from "./ask-client.ts";
import type { RunningAsk } from "./ask-client.ts";
import type { AskResult } from "./ask-types.ts";

// The session's questions and answers, newest last. One ask runs at a time: asking again while
// one streams cancels it, as Esc does.

export interface ChatTurn {
  id: number;
  question: string;
  status: "asking" | "done" | "failed" | "cancelled";
  streamed: string;
  result?: AskResult;
  error?: ErrorInfo;
}

export interface Chat {
  turns: ChatTurn[];
  activeId: number | null;
  busy: boolean;
  ask(question: string): void;
  cancel(): boolean;
  select(id: number): void;
}

let turnCounter = 0;

export function useChat(api: ClauseGraphApi, onAnswer: (turn: ChatTurn & { result: AskResult }) => void): Chat {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [activeId, setActiveId] = useState<number | null>(null);
  const running = useRef<{ id: number; ask: RunningAsk } | null>(null);
  const onAnswerRef = useRef(onAnswer);
  onAnswerRef.current = onAnswer;

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
      const handle = startAsk(api, text, (token) => {
        if (running.current?.id !== id) return;
        setTurns((all) => all.map((t) => (t.id === id ? { ...t, streamed: t.streamed + token } : t)));
      });
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
    [api, cancel, patch],
  );

  const select = useCallback(
    (id: number) => {
      setActiveId(id);
      const turn = turns.find((t) => t.id === id);
      if (turn?.result !== undefined) onAnswerRef.current({ ...turn, result: turn.result });
    },
    [turns],
  );

  return { turns, activeId, busy: turns.some((t) => t.status === "asking"), ask, cancel, select };
}
