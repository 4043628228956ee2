import { useEffect, useRef, useState } from "react";
import type { ClauseGraphApi, ModelEntry, ModelsState } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { AnswerLimitsForm } from "./answer-limits-form.tsx";
import { useModels } from "./use-models.ts";

// The header's model control: which way answers are made (quoted, or written by a local model),
// and a small menu to choose a model, go back to none, or import a GGUF file by its path.

function size(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

function activeName(state: ModelsState): string {
  const id = state.active.modelId;
  if (id === null) return "No model";
  return state.models.find((m) => m.id === id)?.name ?? id;
}

function statusLine(state: ModelsState): string | null {
  const { active } = state;
  switch (active.status) {
    case "none":
      return "Answers are quoted from the documents (extractive).";
    case "pending":
      return `${activeName(state)} loads with the first question; until then answers are quoted.`;
    case "loading":
      return `Loading ${activeName(state)}… this can take a minute.`;
    case "ready":
      return active.external
        ? `Answers are written by ${activeName(state)} (given at start-up).`
        : `Answers are written by ${activeName(state)} and checked against their citations.`;
    case "failed":
      return `${activeName(state)} could not be loaded, so answers are quoted from the documents.`;
    default: {
      const unreachable: never = active.status;
      return String(unreachable);
    }
  }
}

function ModelOption({ model, checked, disabled, onSelect }: { model: ModelEntry; checked: boolean; disabled: boolean; onSelect(): void }) {
  // A GGUF's own name can be vague ("llama"): the id, from the file name, tells two apart.
  const details = [
    model.name.toLowerCase() === model.id ? null : model.id,
    model.parameters,
    model.quantization,
    model.present ? size(model.sizeBytes) : `not installed (~${size(model.sizeBytes)})`,
  ].filter((x) => x !== null && x !== "");
  return (
    <li>
      <label className={`model-option${model.present ? "" : " absent"}`} data-testid="model-option" data-model-id={model.id} data-present={model.present}>
        <input type="radio" name="model" checked={checked} disabled={disabled || !model.present} onChange={onSelect} />
        <span className="model-option-text">
          <span>{model.name}</span>
          <span className="muted small">{details.join(" · ")}</span>
        </span>
      </label>
    </li>
  );
}

/** `refreshKey` changes when an answer arrives: a saved model may have loaded with it. */
export function ModelPicker({ api, refreshKey }: { api: ClauseGraphApi; refreshKey?: number }) {
  const models = useModels(api);
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState("");
  const root = useRef<HTMLDivElement>(null);
  const { state, busy, error, refresh } = models;

  useEffect(() => {
    if (refreshKey !== undefined && refreshKey > 0) void refresh();
  }, [refreshKey, refresh]);

  // A click outside or Escape closes the menu, as menus do.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent): void => {
      if (root.current !== null && event.target instanceof Node && !root.current.contains(event.target)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const mode = state?.active.mode ?? "extractive";
  // While a model loads its radio is already the checked one: the click took effect.
  const chosen = busy !== null && busy !== "import" ? (busy === "" ? null : busy) : (state?.active.modelId ?? null);
  return (
    <div className="model-picker" ref={root}>
      <button
        type="button"
        className="quiet small model-picker-toggle"
        data-testid="model-picker"
        aria-haspopup="dialog"
        aria-expanded={open}
        title="Choose how answers are made"
        onClick={() => {
          if (!open) void refresh();
          setOpen(!open);
        }}
      >
        <span className={`mode-badge mode-${mode}`}>{mode === "llm" ? "LLM" : "Extractive"}</span>
        <span>{state === null ? "Model…" : activeName(state)}</span>
        {state !== null && mode === "llm" ? (
          <span className="muted small" data-testid="answer-limits" title="A written answer stops at whichever limit comes first; the answer then says so">
            ≤ {state.limits.maxTokens} tokens · {state.limits.maxSeconds} s
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="model-menu" role="dialog" aria-label="Language model" data-testid="model-menu">
          <div className="model-menu-title">Answers</div>
          {state === null ? (
            <p className="muted small">Loading the model list…</p>
          ) : (
            <p className="small" data-testid="model-status" data-status={state.active.status}>
              {statusLine(state)}
            </p>
          )}
          {state?.active.status === "failed" && state.active.error !== null ? <ErrorMessage error={state.active.error} testId="model-load-error" /> : null}
          {state !== null ? (
            <ul className="model-list" role="radiogroup" aria-label="Model">
              <li>
                <label className="model-option" data-testid="model-option" data-model-id="">
                  <input type="radio" name="model" checked={chosen === null} disabled={busy !== null} onChange={() => void models.select(null)} />
                  <span className="model-option-text">
                    <span>No model</span>
                    <span className="muted small">Quote the best-supported sentences, with citations</span>
                  </span>
                </label>
              </li>
              {state.models.map((m) => (
                <ModelOption key={m.id} model={m} checked={chosen === m.id} disabled={busy !== null} onSelect={() => void models.select(m.id)} />
              ))}
            </ul>
          ) : null}
          {state !== null ? (
            <AnswerLimitsForm key={`${state.limits.maxTokens}/${state.limits.maxSeconds}`} limits={state.limits} onSave={models.setLimits} />
          ) : null}
          {busy !== null && busy !== "import" ? (
            <p className="muted small" role="status">
              Loading {busy === "" ? "…" : busy}… answers keep working meanwhile.
            </p>
          ) : null}
          {error !== null ? <ErrorMessage error={error} testId="model-error" /> : null}
          <form
            className="model-import"
            onSubmit={(event) => {
              event.preventDefault();
              const file = path.trim();
              if (file === "") return;
              void models.importFile(file).then((ok) => {
                if (ok) setPath("");
              });
            }}
          >
            <input
              type="text"
              value={path}
              placeholder="Path to a .gguf file on this computer"
              aria-label="Path to a GGUF model file"
              onChange={(event) => setPath(event.target.value)}
            />
            <button type="submit" className="small" disabled={busy !== null || path.trim() === ""}>
              {busy === "import" ? "Importing…" : "Import"}
            </button>
          </form>
          {state !== null ? <p className="muted small model-folder">Models folder: {state.modelsDir}. Nothing is downloaded.</p> : null}
        </div>
      ) : null}
    </div>
  );
}
