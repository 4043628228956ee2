import { useCallback, useEffect, useState } from "react";
import type { ClauseGraphApi, ConversationSummary, ErrorInfo } from "../../../core/contract/contract.ts";

// The library's conversations for the list: searched by the words of their questions and
// answers (in the engine), refreshed when the chat records a turn.

export interface ConversationList {
  items: ConversationSummary[];
  query: string;
  setQuery(query: string): void;
  loading: boolean;
  error: ErrorInfo | null;
  /** Deletes it; false (with `error` set) when the engine refused. */
  remove(id: string): Promise<boolean>;
}

/** Typing is searched once it pauses. */
const SEARCH_DELAY_MS = 200;

export function useConversations(api: ClauseGraphApi, refreshKey: unknown): ConversationList {
  const [items, setItems] = useState<ConversationSummary[]>([]);
  const [query, setQuery] = useState("");
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    const timer = window.setTimeout(
      () => {
        const q = query.trim();
        void api.listConversations(q === "" ? {} : { query: q }).then((result) => {
          if (!current) return;
          setLoading(false);
          if (result.ok) {
            setItems(result.value);
            setError(null);
          } else {
            setError(result.error);
          }
        });
      },
      query === "" ? 0 : SEARCH_DELAY_MS,
    );
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [api, query, refreshKey, version]);

  const remove = useCallback(
    async (id: string): Promise<boolean> => {
      const result = await api.deleteConversation({ id });
      if (!result.ok) {
        setError(result.error);
        return false;
      }
      setVersion((v) => v + 1);
      return true;
    },
    [api],
  );

  return { items, query, setQuery, loading, error, remove };
}
