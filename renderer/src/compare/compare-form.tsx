import { useEffect, useId, useMemo, useState } from "react";
import type { DocumentRecord } from "../../../core/contract/contract.ts";
import { foldForFilter, indexDocuments } from "../library/document-filter.ts";
import { DocumentPicker, type PickerChoice } from "../library/document-picker.tsx";
import type { CompareRequest, RunState } from "./use-compare.ts";

interface Props {
  documents: readonly DocumentRecord[];
  running: RunState | null;
  /** A language model is loaded (or chosen): verdicts can be asked for. */
  modelAvailable: boolean;
  onRun(request: CompareRequest): void;
  onCancel(): void;
}

const LIBRARY = "__library__";

/** Which step of a comparison, in words. */
const STEPS: Record<string, string> = {
  queued: "Waiting",
  reading: "Reading both documents",
  neighbours: "Finding nearest sections",
  scoring: "Scoring candidate pairs",
  analysing: "Comparing obligations",
  storing: "Storing the crosswalk",
  verdicts: "Model verdicts",
};

function name(d: DocumentRecord): string {
  return d.title !== "" && d.title !== d.fileName ? `${d.fileName} — ${d.title}` : d.fileName;
}

const WHOLE_LIBRARY: PickerChoice = {
  value: LIBRARY,
  label: "The whole library",
  name: "The whole library",
  detail: "Every other document",
  text: foldForFilter("the whole library, every other document"),
};

export function CompareForm({ documents, running, modelAvailable, onRun, onCancel }: Props) {
  const [documentA, setA] = useState("");
  const [documentB, setB] = useState("");
  const [k, setK] = useState(3);
  const [verdicts, setVerdicts] = useState(false);
  const [allProvisions, setAllProvisions] = useState(false);
  const labelA = useId();
  const labelB = useId();
  // Built once per library, not per render: the form re-renders with the app (e.g. while an answer streams).
  const choices = useMemo(
    () =>
      indexDocuments(documents).map(({ document: d, text }) => ({
        value: d.id,
        label: name(d),
        name: d.fileName,
        detail: d.title !== d.fileName ? d.title : "",
        text,
      })),
    [documents],
  );
  const choicesB = useMemo(() => [WHOLE_LIBRARY, ...choices.filter((c) => c.value !== documentA)], [choices, documentA]);
  // A document deleted meanwhile is no longer a choice.
  useEffect(() => {
    if (documentA !== "" && !documents.some((d) => d.id === documentA)) setA("");
    if (documentB !== "" && documentB !== LIBRARY && !documents.some((d) => d.id === documentB)) setB("");
  }, [documents, documentA, documentB]);
  const a = documents.find((d) => d.id === documentA);
  const ready = a !== undefined && documentB !== "" && documentB !== documentA && running === null;
  const progress = running?.progress;
  const ratio = progress && progress.total > 0 ? Math.min(1, progress.current / progress.total) : 0;

  return (
    <form
      className="compare-form"
      aria-label="Compare two documents"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onRun({ documentA, documentB: documentB === LIBRARY ? null : documentB, k, verdicts: verdicts && modelAvailable, allProvisions });
      }}
    >
      <div className="compare-side">
        <span id={labelA}>A — every provision of</span>
        <DocumentPicker
          choices={choices}
          value={documentA}
          onChange={(id) => {
            setA(id);
            // B never equals A: its list leaves A out.
            if (id === documentB) setB("");
          }}
          disabled={running !== null}
          labelledBy={labelA}
          testId="compare-a"
        />
      </div>
      <div className="compare-side">
        <span id={labelB}>B — matched in</span>
        <DocumentPicker choices={choicesB} value={documentB} onChange={setB} disabled={running !== null} labelledBy={labelB} testId="compare-b" />
      </div>
      <div className="compare-options">
        <label className="inline">
          Best
          <input
            type="number"
            min={1}
            max={20}
            value={k}
            data-testid="compare-k"
            onChange={(e) => setK(Math.max(1, Math.min(20, Number(e.currentTarget.value) || 3)))}
            disabled={running !== null}
          />
          matches each
        </label>
        <label className="inline" title="By default only operative provisions (articles, sections, requirements) are aligned">
          <input
            type="checkbox"
            checked={allProvisions}
            disabled={running !== null}
            data-testid="compare-all-provisions"
            onChange={(e) => setAllProvisions(e.currentTarget.checked)}
          />
          Recitals, introductions and appendices too
        </label>
        <label
          className="inline"
          title={modelAvailable ? "The loaded model judges every stored pair" : "Choose a language model in the header to have pairs judged"}
        >
          <input
            type="checkbox"
            checked={verdicts && modelAvailable}
            disabled={!modelAvailable || running !== null}
            data-testid="compare-verdicts"
            onChange={(e) => setVerdicts(e.currentTarget.checked)}
          />
          Model verdicts{a ? ` (up to ${k * a.sections} calls, k × sections)` : ""}
        </label>
        <span className="spacer" />
        {running === null ? (
          <button type="submit" className="primary" data-testid="compare-run" disabled={!ready}>
            Compare
          </button>
        ) : (
          <button type="button" data-testid="compare-cancel" onClick={onCancel} disabled={running.cancelling}>
            {running.cancelling ? "Cancelling…" : "Cancel"}
          </button>
        )}
      </div>
      {running !== null ? (
        <div className="compare-progress" data-testid="compare-progress" aria-live="polite">
          <div className="progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(ratio * 100)}>
            <div className="progress-fill" style={{ width: `${Math.round(ratio * 100)}%` }} />
          </div>
          <span className="muted small">
            {STEPS[progress?.step ?? "queued"] ?? progress?.step}
            {progress && progress.total > 1 ? ` · ${progress.current} / ${progress.total}` : ""}
          </span>
        </div>
      ) : null}
    </form>
  );
}
