import { useMemo, useState } from "react";
import type { Crosswalk, CrosswalkMatch, CrosswalkRow, PairFlag } from "../../../core/contract/contract.ts";
import { plural } from "../lib/format.ts";

interface Props {
  crosswalk: Crosswalk;
  onOpenPair(row: CrosswalkRow, match: CrosswalkMatch): void;
}

type Filter = "all" | "differences" | "unmatched";

const VERDICT_WORDS: Record<string, string> = {
  equivalent: "equivalent",
  a_stricter: "A stricter",
  b_stricter: "B stricter",
  contradicts: "contradicts",
  unrelated: "unrelated",
};

/** A row differs when its best match is flagged or judged other than equivalent. */
function differs(row: CrosswalkRow): boolean {
  const best = row.matches[0];
  if (best === undefined || row.unmatched) return false;
  return best.flags.length > 0 || (best.verdict !== undefined && best.verdict.label !== "equivalent");
}

function flagClass(flag: PairFlag): string {
  return flag.kind === "deadline" || flag.kind === "modality" ? "flag strong" : "flag";
}

export function CrosswalkTable({ crosswalk, onOpenPair }: Props) {
  const [filter, setFilter] = useState<Filter>("all");
  // In "All", provisions without a match are grouped after the matched ones, folded: a crosswalk
  // between regulations of different scope has many, and they buried the rows that align.
  const [showUnmatched, setShowUnmatched] = useState(false);
  const rows = useMemo(
    () => crosswalk.rows.filter((r) => (filter === "all" ? !r.unmatched : filter === "unmatched" ? r.unmatched : differs(r))),
    [crosswalk, filter],
  );
  const unmatchedRows = useMemo(() => (filter === "all" ? crosswalk.rows.filter((r) => r.unmatched) : []), [crosswalk, filter]);
  const counts = useMemo(
    () => ({ differences: crosswalk.rows.filter(differs).length, unmatched: crosswalk.rows.filter((r) => r.unmatched).length }),
    [crosswalk],
  );
  return (
    <div className="crosswalk">
      <div className="crosswalk-filters" role="radiogroup" aria-label="Show">
        {(
          [
            ["all", `All ${crosswalk.rows.length}`],
            ["differences", `Only differences (${counts.differences})`],
            ["unmatched", `Only unmatched (${counts.unmatched})`],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className={filter === value ? "chip active" : "chip"}>
            <input
              type="radio"
              name="crosswalk-filter"
              value={value}
              checked={filter === value}
              onChange={() => setFilter(value)}
              data-testid={`filter-${value}`}
            />
            {label}
          </label>
        ))}
      </div>
      {rows.length + unmatchedRows.length === 0 ? <p className="empty">No provision of A here.</p> : null}
      <table className="crosswalk-table" data-testid="crosswalk-table">
        <thead>
          <tr>
            <th scope="col">A’s provision</th>
            <th scope="col">Best matches in B</th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col">Flags / verdict</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <CrosswalkRowView key={row.aSectionId} row={row} threshold={crosswalk.comparison.matchThreshold} onOpenPair={onOpenPair} />
          ))}
        </tbody>
        {unmatchedRows.length > 0 ? (
          <tbody className="unmatched-group" data-testid="crosswalk-unmatched-group">
            <tr>
              <th colSpan={4} scope="rowgroup">
                <button
                  type="button"
                  className="link"
                  aria-expanded={showUnmatched}
                  onClick={() => setShowUnmatched((v) => !v)}
                  data-testid="crosswalk-unmatched-toggle"
                >
                  {showUnmatched ? "Hide" : "Show"} {plural(unmatchedRows.length, "provision")} of A without a match above {crosswalk.comparison.matchThreshold}
                </button>
              </th>
            </tr>
            {showUnmatched
              ? unmatchedRows.map((row) => (
                  <CrosswalkRowView key={row.aSectionId} row={row} threshold={crosswalk.comparison.matchThreshold} onOpenPair={onOpenPair} />
                ))
              : null}
          </tbody>
        ) : null}
      </table>
      <p className="muted small">
        {plural(crosswalk.rows.length, "provision")} of A; flags and verdicts are those of the best match. Click a match to read both texts side by side.
      </p>
    </div>
  );
}

/** One provision of A: its best matches in B with their scores, flags and verdict. */
function CrosswalkRowView({ row, threshold, onOpenPair }: { row: CrosswalkRow; threshold: number; onOpenPair: Props["onOpenPair"] }) {
  return (
    <tr className={row.unmatched ? "unmatched" : ""} data-testid="crosswalk-row">
      <th scope="row">
        <span className="label">{row.aLabel}</span> <span className="muted">{row.aHeading}</span>
      </th>
      <td>
        <ol className="matches">
          {row.matches.map((m) => (
            <li key={m.bSectionId}>
              <button type="button" className="link" data-testid="crosswalk-match" title="Open both texts side by side" onClick={() => onOpenPair(row, m)}>
                {m.bLabel}
              </button>{" "}
              <span className="muted">{m.bHeading}</span>
              {m.reasons.citation ? (
                <span className="cite-badge" title={`${m.reasons.citation.direction === "a-cites-b" ? "A cites B" : "B cites A"}: ${m.reasons.citation.raw}`}>
                  cited
                </span>
              ) : null}
            </li>
          ))}
          {row.matches.length === 0 ? <li className="muted">no candidate</li> : null}
        </ol>
      </td>
      <td className="num">
        {row.matches.map((m) => (
          <div key={m.bSectionId} className={m.score < threshold ? "muted" : ""}>
            {m.score.toFixed(2)}
          </div>
        ))}
      </td>
      <td>
        {row.unmatched ? <span className="flag">no match above {threshold}</span> : null}
        {(row.matches[0]?.flags ?? []).map((f, i) => (
          <span key={i} className={flagClass(f)} title={f.message} data-testid="crosswalk-flag">
            {f.kind === "deadline"
              ? `time: ${f.a ?? "—"} / ${f.b ?? "—"}`
              : f.kind === "modality"
                ? `${f.a} / ${f.b}`
                : f.kind === "no-obligations"
                  ? `no obligations in ${f.side === "a" ? "B" : "A"}`
                  : `duty only in ${f.side.toUpperCase()}`}
          </span>
        ))}
        {row.matches[0]?.verdict ? (
          <span
            className={`verdict ${row.matches[0].verdict.label}`}
            data-testid="crosswalk-verdict"
            title={`${row.matches[0].verdict.modelId}: “${row.matches[0].verdict.quoteA.text}” / “${row.matches[0].verdict.quoteB.text}”`}
          >
            {VERDICT_WORDS[row.matches[0].verdict.label] ?? row.matches[0].verdict.label}
          </span>
        ) : null}
      </td>
    </tr>
  );
}
