import { useEffect, useState } from "react";
import type { DocumentRecord, Subgraph, TripletRecord } from "../../../core/contract/contract.ts";
import { useApi } from "../api/api-context.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { plural } from "../lib/format.ts";
import { CompareForm } from "./compare-form.tsx";
import { CrosswalkTable } from "./crosswalk-table.tsx";
import { PairView } from "./pair-view.tsx";
import { useCompare } from "./use-compare.ts";

interface Props {
  documents: readonly DocumentRecord[];
  /** Shows a pair's graph (both sections, shared terms, obligations) in the graph pane. */
  onShowGraph(subgraph: Subgraph, triplets: readonly TripletRecord[], title: string): void;
  onOpenSection(sectionId: string, span?: { start: number; end: number }): void;
  /** Changes when the library does: comparisons may have gone with a document. */
  libraryKey: string;
}

// The Compare tab: choose A and B, run (progress, Cancel), then the crosswalk table with its
// filters; a match opens both texts side by side and its graph.
export function ComparePane({ documents, onShowGraph, onOpenSection, libraryKey }: Props) {
  const api = useApi();
  const compare = useCompare(api);
  const [modelAvailable, setModelAvailable] = useState(false);
  const { refresh } = compare;
  useEffect(() => {
    void refresh();
    void api.listModels({}).then((r) => setModelAvailable(r.ok && r.value.active.modelId !== null && r.value.active.status !== "failed"));
  }, [api, refresh, libraryKey]);

  const crosswalk = compare.crosswalk;
  const c = crosswalk?.comparison;
  return (
    <section className="pane compare-pane" aria-label="Compare">
      <CompareForm
        documents={documents}
        running={compare.running}
        modelAvailable={modelAvailable}
        onRun={(r) => void compare.run(r)}
        onCancel={compare.cancel}
      />
      {compare.error ? <ErrorMessage error={compare.error} testId="compare-error" /> : null}
      {compare.comparisons.length > 0 ? (
        <details className="compare-history">
          <summary>Earlier comparisons ({compare.comparisons.length})</summary>
          <ul>
            {compare.comparisons.map((s) => (
              <li key={s.id}>
                <button type="button" className="link" onClick={() => void compare.open(s.id)} data-testid="comparison-open">
                  {s.documentA.fileName} ↔ {s.documentB?.fileName ?? "library"}
                </button>{" "}
                <span className="muted small">
                  k = {s.k} · {new Date(s.updatedAt).toLocaleString()}
                  {s.status !== "complete" ? ` · ${s.status}` : ""}
                  {s.stale ? " · outdated" : ""}
                </span>{" "}
                <button type="button" className="quiet small" title="Delete this comparison" onClick={() => void compare.remove(s.id)}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {crosswalk !== null && c !== undefined ? (
        <>
          <div className="compare-summary" data-testid="compare-summary">
            <div>
              <strong>{c.documentA.fileName}</strong> ↔{" "}
              <strong>{c.documentB?.fileName ?? `the library (${plural(c.libraryDocuments.length, "document")})`}</strong>
              <span className="muted small">
                {" "}
                · {plural(c.sections, "provision")} · {c.pairsExamined} candidate pairs examined ({(c.pairsExamined / Math.max(1, c.k * c.sections)).toFixed(1)}{" "}
                × k·n) · k = {c.k}
                {c.llmModel ? ` · verdicts by ${c.llmModel}` : ""}
              </span>
            </div>
            <span className="spacer" />
            <span className="compare-actions">
              <button type="button" className="small" onClick={() => void compare.exportAs("csv")} data-testid="compare-export-csv">
                Export CSV
              </button>
              <button type="button" className="small" onClick={() => void compare.exportAs("md")} data-testid="compare-export-md">
                Export Markdown
              </button>
            </span>
          </div>
          {c.stale ? (
            <p className="notice" data-testid="compare-stale">
              {c.stale}
            </p>
          ) : null}
          {c.status === "partial" ? (
            <p className="notice">The model's verdicts were stopped before the end: compare again to finish them (those made are kept).</p>
          ) : null}
          {compare.pair !== null ? (
            <PairView
              pair={compare.pair}
              onBack={compare.closePair}
              onOpenSection={onOpenSection}
              onShowGraph={() => {
                const d = compare.pair?.detail;
                if (d) onShowGraph(d.subgraph, d.triplets, `${d.a.label} ↔ ${d.b.label}`);
              }}
            />
          ) : (
            <CrosswalkTable
              crosswalk={crosswalk}
              onOpenPair={(row, match) =>
                void compare.openPair(row, match).then((d) => {
                  // The row's graph goes beside it at once: both sections, their shared terms and obligations.
                  if (d) onShowGraph(d.subgraph, d.triplets, `${d.a.label} ↔ ${d.b.label}`);
                })
              }
            />
          )}
        </>
      ) : compare.running === null ? (
        <p className="empty">
          Choose two documents (or one and the whole library): each provision of A gets its best matches in B, with the reasons, and the differences between
          their obligations.
        </p>
      ) : null}
    </section>
  );
}
