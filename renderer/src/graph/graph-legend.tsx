import type { SubgraphNode } from "../../../core/contract/contract.ts";

type SubgraphNodeKind = SubgraphNode["kind"];
import { NODE_KIND_NAMES } from "./graph-style.ts";

// The legend draws the same shapes as the canvas, in the same CSS colours.
function Swatch({ kind }: { kind: SubgraphNodeKind }) {
  return (
    <svg className={`legend-swatch swatch-${kind}`} width="16" height="12" viewBox="0 0 16 12" aria-hidden="true">
      {kind === "section" ? <rect x="1" y="1.5" width="14" height="9" rx="2.5" /> : null}
      {kind === "entity" ? <ellipse cx="8" cy="6" rx="5.5" ry="5" /> : null}
      {kind === "term" ? <polygon points="8,0.5 14,6 8,11.5 2,6" /> : null}
    </svg>
  );
}

function EdgeSwatch({ kind }: { kind: "triplet" | "cites" | "defines" }) {
  return (
    <svg className={`legend-swatch edge-${kind}`} width="22" height="12" viewBox="0 0 22 12" aria-hidden="true">
      <line x1="1" y1="6" x2="21" y2="6" />
    </svg>
  );
}

export function GraphLegend() {
  return (
    <ul className="graph-legend" data-testid="graph-legend" aria-label="Legend">
      {(["section", "entity", "term"] as const).map((kind) => (
        <li key={kind} data-kind={kind}>
          <Swatch kind={kind} /> {NODE_KIND_NAMES[kind]}
        </li>
      ))}
      <li>
        <EdgeSwatch kind="triplet" /> obligation
      </li>
      <li>
        <EdgeSwatch kind="cites" /> cites
      </li>
      <li>
        <EdgeSwatch kind="defines" /> defines / mentions
      </li>
    </ul>
  );
}
