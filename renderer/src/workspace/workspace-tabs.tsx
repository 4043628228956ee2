import type { KeyboardEvent } from "react";

export type WorkspaceTab = "library" | "search" | "compare" | "history" | "reader";

const TABS: [WorkspaceTab, string][] = [
  ["library", "Library"],
  ["search", "Search"],
  ["compare", "Compare"],
  ["history", "Conversations"],
  ["reader", "Section"],
];

interface Props {
  current: WorkspaceTab;
  onChange(tab: WorkspaceTab): void;
}

/** The tab bar of the left column (WAI-ARIA tabs: arrow keys move between tabs). */
export function WorkspaceTabs({ current, onChange }: Props) {
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const index = TABS.findIndex(([id]) => id === current);
    const step = event.key === "ArrowRight" ? 1 : TABS.length - 1;
    const next = TABS[(index + step) % TABS.length];
    if (next !== undefined) {
      onChange(next[0]);
      document.getElementById(`tab-${next[0]}`)?.focus();
    }
  };
  return (
    <div className="workspace-tabs" role="tablist" aria-label="Workspace" onKeyDown={onKeyDown}>
      {TABS.map(([id, label]) => (
        <button
          key={id}
          id={`tab-${id}`}
          type="button"
          role="tab"
          aria-selected={id === current}
          aria-controls={`panel-${id}`}
          tabIndex={id === current ? 0 : -1}
          className={id === current ? "tab active" : "tab"}
          data-testid={`tab-${id}`}
          onClick={() => onChange(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
