import type { SubgraphNode } from "../../../core/contract/contract.ts";
import { NODE_KIND_NAMES } from "./graph-style.ts";

interface Props {
  nodes: SubgraphNode[];
  selectedNodeId: string | null;
  onSelect(nodeId: string): void;
}

// The canvas is invisible to keyboards and screen readers: the same nodes as a list, which also
// locates a node in the drawing.
export function GraphNodeList({ nodes, selectedNodeId, onSelect }: Props) {
  return (
    <details className="graph-list">
      <summary data-testid="graph-list-toggle">List view</summary>
      {(["section", "entity", "term"] as const).map((kind) => {
        const ofKind = nodes.filter((n) => n.kind === kind);
        if (ofKind.length === 0) return null;
        return (
          <div key={kind} className="graph-list-group">
            <h4>{NODE_KIND_NAMES[kind]}</h4>
            <ul>
              {ofKind.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    className={n.id === selectedNodeId ? "link selected" : "link"}
                    data-testid="graph-list-node"
                    data-node-id={n.id}
                    data-kind={n.kind}
                    onClick={() => onSelect(n.id)}
                  >
                    {n.label}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </details>
  );
}
