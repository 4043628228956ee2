import type { GraphHandle } from "./graph-canvas.tsx";

export function GraphControls({ handle }: { handle: () => GraphHandle | null }) {
  const buttons: [keyof GraphHandle & ("fit" | "zoomIn" | "zoomOut" | "reset"), string, string][] = [
    ["zoomIn", "+", "Zoom in"],
    ["zoomOut", "−", "Zoom out"],
    ["fit", "⤢", "Fit the graph to the view"],
    ["reset", "↺", "Lay the graph out again"],
  ];
  return (
    <div className="graph-controls" role="toolbar" aria-label="Graph view">
      {buttons.map(([action, glyph, label]) => (
        <button
          key={action}
          type="button"
          className="icon-button"
          aria-label={label}
          title={label}
          data-testid={`graph-${action}`}
          onClick={() => handle()?.[action]()}
        >
          <span aria-hidden="true">{glyph}</span>
        </button>
      ))}
    </div>
  );
}
