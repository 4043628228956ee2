import { useState } from "react";
import { lowConfidenceOcrPages, type DocumentRecord } from "../../../core/contract/contract.ts";
import { citationText, shortTitle } from "../lib/citation-text.ts";
import type { AskCitation, AskResult, AskSentence } from "./ask-types.ts";
import { AnswerRouteLine } from "./answer-route.tsx";
import { CitationChip } from "./citation-chip.tsx";
import { GraphRowsTable } from "./graph-rows.tsx";
import { citationStops, quotedRange, trailAt, type CitationTrail } from "./citation-trail.ts";
import { CopyButton } from "./copy-button.tsx";
import { ModeBadge } from "./mode-badge.tsx";

interface Props {
  result: AskResult;
  documents: ReadonlyMap<string, DocumentRecord>;
  activeSectionId: string | null;
  onOpenCitation(citation: AskCitation, emphasis?: { start: number; end: number }, trail?: CitationTrail): void;
}

const UNSUPPORTED_TIP = "Not supported by a cited passage: no retrieved section states this. Check it against the sources before relying on it.";

const VERDICT_TEXT: Record<NonNullable<AskResult["verdict"]>, string> = { yes: "Yes", no: "No", conditional: "Only under conditions" };

/**
 * The answer shown before "show more": what the engine did not put under it (`more`); answers
 * logged before it said so show the lead, its list, and the first supporting sentence.
 */
function visibleCount(sentences: readonly AskSentence[]): number {
  const firstMore = sentences.findIndex((s) => s.more === true);
  if (firstMore >= 0) return firstMore;
  if (sentences.some((s) => s.more === false)) return sentences.length;
  let supports = 0;
  for (let i = 0; i < sentences.length; i++) {
    const role = sentences[i]?.role;
    if (role === "support" && ++supports > 1) return i;
  }
  return sentences.length;
}

/** "Show 5 more points and 2 supporting sentences": what "show more" opens, by kind. */
function moreLabel(rest: readonly AskSentence[]): string {
  const points = rest.filter((s) => s.role === "point").length;
  const others = rest.length - points;
  const parts = [
    ...(points > 0 ? [`${points} more ${points === 1 ? "point" : "points"}`] : []),
    ...(others > 0 ? [`${others} ${points > 0 ? "" : "more "}supporting ${others === 1 ? "sentence" : "sentences"}`] : []),
  ];
  return `Show ${parts.join(" and ")}`;
}

export function AnswerView({ result, documents, activeSectionId, onOpenCitation }: Props) {
  const [expanded, setExpanded] = useState(false);
  const byKey = new Map(result.citations.map((c) => [c.key, c]));
  const stops = citationStops(result);
  // The engine already labels citations the way auditors cite ("DORA Art. 19(4), p. 42"); older
  // answers without a page in the label get one here.
  const chipText = (c: AskCitation): string =>
    /\bpp?\. \S/.test(c.label) ? c.label : citationText(shortTitle(documents.get(c.documentId), c.file), c.label, c.pageStart, c.pageEnd);
  // Cited pages a scan's OCR was unsure of: the chip says "OCR, low confidence".
  const lowOcr = (c: AskCitation): number[] => lowConfidenceOcrPages(documents.get(c.documentId)?.ocr, c.pageStart, c.pageEnd);
  const copyText = (): string => {
    const body =
      result.sentences.length > 0
        ? result.sentences
            .map((s) => `${s.text}${s.citationKeys.length > 0 ? ` [${s.citationKeys.join(", ")}]` : ""}${s.supported ? "" : " (unsupported)"}`)
            .join(" ")
        : result.answer;
    const verdict = result.verdict === undefined ? "" : `${VERDICT_TEXT[result.verdict]}: `;
    const sources = result.citations.map((c) => `[${c.key}] ${chipText(c)} — ${c.file}`);
    return sources.length > 0 ? `${verdict}${body}\n\nSources:\n${sources.join("\n")}` : `${verdict}${body}`;
  };
  const unsupported = result.sentences.filter((s) => !s.supported).length;
  const refused = result.citations.length === 0;
  // A graph answer's rows are drawn as a table: the sentences that repeat them (kept for the log
  // and exports) are not shown again — all but the summary on the graph route, and on the "both"
  // route the summary and rows the engine put under "show more".
  const rows = result.rows ?? [];
  const rowKeys = new Set(rows.map((r) => r.citation.key));
  const sentences =
    rows.length === 0
      ? result.sentences
      : result.route?.route === "graph"
        ? result.sentences.slice(0, 1)
        : result.sentences.filter((s) => !(s.more === true && s.citationKeys.every((k) => rowKeys.has(k))));
  const columns = result.route?.columns ?? rows[0]?.cells.map((c) => c.name) ?? [];
  const shown = expanded ? sentences.length : visibleCount(sentences);
  const hidden = sentences.length - shown;

  return (
    <div className={refused ? "answer refused" : "answer"} data-testid="answer" data-mode={result.mode}>
      <div className="answer-body">
        {sentences.length === 0 ? <p>{result.answer}</p> : null}
        {sentences.length > 0 ? (
          <p>
            {result.verdict !== undefined ? (
              <strong className={`verdict verdict-${result.verdict}`} data-testid="answer-verdict">
                {VERDICT_TEXT[result.verdict]}:{" "}
              </strong>
            ) : null}
            {sentences.slice(0, shown).map((s, i) => (
              <span key={i} className={s.role === "point" ? "answer-point" : undefined}>
                <span
                  className={[s.supported ? "sentence" : "sentence unsupported", s.role === "lead" ? "lead" : ""].join(" ").trim()}
                  data-testid={s.supported ? "answer-sentence" : "unsupported-sentence"}
                  data-role={s.role ?? ""}
                  title={s.supported ? undefined : UNSUPPORTED_TIP}
                >
                  {s.supported ? null : (
                    <span className="unsupported-mark" aria-label="Unsupported:">
                      ⚠{" "}
                    </span>
                  )}
                  {s.text}
                </span>
                {[...new Set(s.citationKeys)].map((key) => {
                  const c = byKey.get(key);
                  const emphasis = quotedRange(s, key);
                  return c === undefined ? null : (
                    <CitationChip
                      key={key}
                      citation={c}
                      text={chipText(c)}
                      lowOcrPages={lowOcr(c)}
                      active={c.sectionId === activeSectionId}
                      onOpen={() => onOpenCitation(c, emphasis, trailAt(stops, c, emphasis))}
                    />
                  );
                })}{" "}
              </span>
            ))}
          </p>
        ) : null}
        {hidden > 0 || expanded ? (
          <button type="button" className="link small" data-testid="answer-more" onClick={() => setExpanded((e) => !e)}>
            {expanded ? "Show less" : moreLabel(sentences.slice(shown))}
          </button>
        ) : null}
        {rows.length > 0 ? (
          <GraphRowsTable
            columns={columns}
            rows={rows}
            chipText={chipText}
            activeSectionId={activeSectionId}
            onOpen={(c) => onOpenCitation(c, c.spans?.[0], trailAt(stops, c, c.spans?.[0]))}
          />
        ) : null}
        {refused && result.analysis !== undefined ? (
          <p className="refusal-reason" data-testid="refusal-reason">
            {result.analysis}
          </p>
        ) : null}
      </div>
      {result.route !== undefined ? <AnswerRouteLine route={result.route} /> : null}
      <div className="answer-footer">
        <ModeBadge mode={result.mode} />
        {unsupported > 0 ? (
          <span className="muted small" title={UNSUPPORTED_TIP}>
            {unsupported === 1 ? "1 sentence is" : `${unsupported} sentences are`} not backed by a citation
          </span>
        ) : null}
        <span className="spacer" />
        <CopyButton text={copyText} />
      </div>
      {result.citations.length > 0 ? (
        <div className="sources" data-testid="answer-sources">
          <span className="muted small">Sources</span>
          {result.citations.map((c) => (
            <CitationChip
              key={c.key}
              citation={c}
              text={chipText(c)}
              lowOcrPages={lowOcr(c)}
              active={c.sectionId === activeSectionId}
              onOpen={() => onOpenCitation(c, undefined, trailAt(stops, c))}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
