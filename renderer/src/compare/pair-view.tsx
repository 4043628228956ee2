import { useEffect, useMemo, useRef } from "react";
import type { ObligationView, Section } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { pageRange } from "../lib/format.ts";
import { highlightText, type Highlight } from "./highlight-text.ts";
import type { OpenPair } from "./use-compare.ts";

interface Props {
  pair: OpenPair;
  onBack(): void;
  onShowGraph(): void;
  onOpenSection(sectionId: string, span?: { start: number; end: number }): void;
}

function SideText({ section, highlights, testId }: { section: Section; highlights: readonly Highlight[]; testId: string }) {
  const root = useRef<HTMLDivElement>(null);
  const paragraphs = useMemo(() => highlightText(section.text, highlights), [section, highlights]);
  // The first highlight may be far down a long article.
  useEffect(() => {
    root.current?.querySelector("mark")?.scrollIntoView({ block: "nearest" });
  }, [paragraphs]);
  return (
    <div ref={root} className="pair-text" data-testid={testId}>
      {paragraphs.map((pieces, i) => (
        <p key={i}>
          {pieces.map((piece, j) =>
            piece.kind === null ? (
              <span key={j}>{piece.text}</span>
            ) : (
              <mark key={j} className={piece.kind} data-testid={`${testId}-mark`}>
                {piece.text}
              </mark>
            ),
          )}
        </p>
      ))}
    </div>
  );
}

function obligationText(o: ObligationView | null): string {
  if (o === null) return "—";
  return [o.party, o.modality, o.action, o.object].filter((x) => x.trim() !== "").join(" ");
}

export function PairView({ pair, onBack, onShowGraph, onOpenSection }: Props) {
  const { detail, match, row } = pair;
  const highlights = useMemo(() => {
    const a: Highlight[] = match.evidence.sentences.map((s) => ({ ...s.a, kind: "match" }));
    const b: Highlight[] = match.evidence.sentences.map((s) => ({ ...s.b, kind: "match" }));
    if (match.verdict) {
      a.push({ start: match.verdict.quoteA.start, end: match.verdict.quoteA.end, kind: "quote" });
      b.push({ start: match.verdict.quoteB.start, end: match.verdict.quoteB.end, kind: "quote" });
    }
    return { a, b };
  }, [match]);
  return (
    <section className="pair-view" aria-label="Pair side by side" data-testid="pair-view">
      <div className="pair-header">
        <button type="button" className="quiet" onClick={onBack} data-testid="pair-back">
          ← Crosswalk
        </button>
        <span className="pair-title">
          {row.aLabel} ↔ {match.bLabel} · score {match.score.toFixed(2)}
        </span>
        <span className="spacer" />
        <button type="button" onClick={onShowGraph} disabled={detail === null} data-testid="pair-graph">
          Show in graph
        </button>
      </div>
      {pair.error ? <ErrorMessage error={pair.error} /> : null}
      <p className="pair-reasons small muted" data-testid="pair-reasons">
        Vector similarity {match.reasons.similarity.toFixed(2)}, shared words {match.reasons.lexical.toFixed(2)}, headings {match.reasons.heading.toFixed(2)}
        {match.reasons.sharedWords.length > 0 ? ` · ${match.reasons.sharedWords.slice(0, 6).join(", ")}` : ""}
        {match.reasons.sharedTerms.length > 0 ? ` · defined terms: ${match.reasons.sharedTerms.join(", ")}` : ""}
        {match.reasons.citation ? ` · ${match.reasons.citation.direction === "a-cites-b" ? "A cites B" : "B cites A"} (${match.reasons.citation.raw})` : ""}
      </p>
      {match.verdict ? (
        <p className={`pair-verdict verdict ${match.verdict.label}`} data-testid="pair-verdict">
          Verdict of {match.verdict.modelId}: <strong>{match.verdict.label.replace("_", " ")}</strong> — the quoted sentences are marked.
        </p>
      ) : null}
      {match.flags.length > 0 ? (
        <ul className="pair-flags">
          {match.flags.map((f, i) => (
            <li key={i} className={f.kind === "deadline" || f.kind === "modality" ? "flag strong" : "flag"}>
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      {detail === null ? (
        pair.error ? null : (
          <p className="muted">Opening both texts…</p>
        )
      ) : (
        <>
          <div className="pair-columns">
            {(
              [
                ["A", detail.aDocument, detail.a, highlights.a, "pair-a"],
                ["B", detail.bDocument, detail.b, highlights.b, "pair-b"],
              ] as const
            ).map(([side, doc, section, marks, testId]) => (
              <article key={side} className="pair-side" aria-label={`${side}: ${section.label}`}>
                <header>
                  <span className="side-badge">{side}</span>{" "}
                  <button type="button" className="link" title="Open in the section reader" onClick={() => onOpenSection(section.id, marks[0])}>
                    {section.label}
                  </button>{" "}
                  <span className="muted">{section.heading}</span>
                  <div className="muted small">
                    {doc.fileName} · {pageRange(section.pageStart, section.pageEnd)}
                  </div>
                </header>
                <SideText section={section} highlights={marks} testId={testId} />
              </article>
            ))}
          </div>
          <h4>Obligations side by side</h4>
          {detail.obligations.length === 0 ? (
            <p className="muted">Neither section states an obligation the rules recognise.</p>
          ) : (
            <table className="obligations-table" data-testid="pair-obligations">
              <thead>
                <tr>
                  <th scope="col">A</th>
                  <th scope="col">Deadline</th>
                  <th scope="col">B</th>
                  <th scope="col">Deadline</th>
                </tr>
              </thead>
              <tbody>
                {detail.obligations.map((o, i) => (
                  <tr key={i} className={o.flags.length > 0 ? "flagged" : o.a === null || o.b === null ? "one-sided" : ""}>
                    <td>{obligationText(o.a)}</td>
                    <td>{o.a?.deadline ?? ""}</td>
                    <td>{obligationText(o.b)}</td>
                    <td>{o.b?.deadline ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
