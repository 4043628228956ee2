import { useEffect, useRef } from "react";
import type { ClauseGraphApi } from "../../../core/contract/contract.ts";
import type { Chat } from "./use-chat.ts";

// After a reload or a restart the chat shows the conversation the auditor was in: the latest
// one in the library (nothing is kept in browser storage). Once, at start, and only if no
// question was asked meanwhile.

export function useReopenLatest(api: ClauseGraphApi, chat: Pick<Chat, "open" | "turns">): void {
  const done = useRef(false);
  const chatRef = useRef(chat);
  chatRef.current = chat;
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    void api.listConversations({}).then((result) => {
      const latest = result.ok ? result.value.find((c) => c.turnCount > 0) : undefined;
      if (latest !== undefined && chatRef.current.turns.length === 0) void chatRef.current.open(latest.id);
    });
  }, [api]);
}
