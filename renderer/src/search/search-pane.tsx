import { useState } from "react";
import type { ErrorInfo, SearchResponse, SearchResult } from "../../../core/contract/contract.ts";
import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { LengthCounter, overLimit } from "../common/length-counter.tsx";
import { SearchResultItem } from "./search-result-item.tsx";

interface Props {
  titles: ReadonlyMap<string, string>;
  activeSectionId: string | null;
  onOpenSection(id: string): void;
  /** The whole response, for the graph beside the chat. */
  onResponse?(response: SearchResponse): void;
}

type SearchState = { kind: "idle" } | { kind: "searching" } | { kind: "done"; query: string; results: SearchResult[] } | { kind: "failed"; error: ErrorInfo };

export function SearchPane({ titles, activeSectionId, onOpenSection, onResponse }: Props) {
  const api = useApi();
  const [query, setQuery] = useState("");
  const [state, setState] = useState<SearchState>({ kind: "idle" });

  const search = async (): Promise<void> => {
    const text = query.trim();
    if (text === "" || overLimit(query)) return;
    setState({ kind: "searching" });
    const result = await api.search({ query: text, k: 20 });
    setState(result.ok ? { kind: "done", query: text, results: result.value.results } : { kind: "failed", error: result.error });
    if (result.ok) onResponse?.(result.value);
  };

  return (
    <section className="pane search-pane" aria-label="Search">
      <form
        className="search-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <input
          type="search"
          aria-label="Search the library"
          placeholder="Search sections, e.g. “incident reporting”"
          data-testid="search-input"
          value={query}
          aria-invalid={overLimit(query)}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="submit" className="primary" data-testid="search-button" disabled={state.kind === "searching" || overLimit(query)}>
          Search
        </button>
      </form>
      <LengthCounter text={query} what="search" testId="search-length" />
      {state.kind === "searching" ? <p className="muted">Searching…</p> : null}
      {state.kind === "failed" ? <ErrorMessage error={state.error} /> : null}
      {state.kind === "done" && state.results.length === 0 ? (
        <p className="empty" data-testid="search-empty">
          No section matches “{state.query}”.
        </p>
      ) : null}
      {state.kind === "done" && state.results.length > 0 ? (
        <ol className="search-results" data-testid="search-results">
          {state.results.map((result) => (
            <SearchResultItem
              key={result.sectionId}
              result={result}
              documentTitle={titles.get(result.documentId)}
              active={result.sectionId === activeSectionId}
              onOpen={() => onOpenSection(result.sectionId)}
            />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
