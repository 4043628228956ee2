import type { SearchResult } from "../../../core/contract/contract.ts";
import { baseName, pageRange } from "../lib/format.ts";

interface Props {
  result: SearchResult;
  documentTitle: string | undefined;
  active: boolean;
  onOpen(): void;
}

export function SearchResultItem({ result, documentTitle, active, onOpen }: Props) {
  return (
    <li>
      <button
        type="button"
        className={active ? "search-result active" : "search-result"}
        data-testid="search-result"
        data-section-id={result.sectionId}
        onClick={onOpen}
      >
        <span className="result-head">
          <span className="result-label">{result.label}</span>
          {result.heading !== "" && result.heading !== result.label ? <span className="result-heading">{result.heading}</span> : null}
        </span>
        <span className="result-meta">
          {documentTitle ?? baseName(result.file)} · {pageRange(result.pageStart, result.pageEnd)} ·{" "}
          <span title="Relevance score">score {result.score.toFixed(2)}</span>
        </span>
        <span className="result-snippet">{result.text}</span>
      </button>
    </li>
  );
}
