import type { SubgraphEdge, SubgraphNode } from "../../../core/contract/contract.ts";
import { documentOfNode } from "./graph-model.ts";
import { NODE_KIND_NAMES } from "./graph-style.ts";

interface Props {
  nodes: SubgraphNode[];
  edges: SubgraphEdge[];
  /** Document id → the name its box on the canvas shows. */
  groups: ReadonlyMap<string, string>;
  selectedNodeId: string | null;
  onSelect(nodeId: string): void;
}

/** Links listed under a node before "and N more". */
const MAX_LINKS = 6;

function linksOf(node: SubgraphNode, edges: readonly SubgraphEdge[], labels: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (e.kind === "in-section") continue;
    if (e.source === node.id) out.push(`${e.label} → ${labels.get(e.target) ?? e.target}`);
    else if (e.target === node.id) out.push(`← ${e.label} ${labels.get(e.source) ?? e.source}`);
  }
  return out;
}

/**
 * The canvas is invisible to keyboards and screen readers: the same nodes and links as a list,
 * grouped by document as the drawing is. Choosing a node does what clicking it does (selects it,
 * lists its sections, opens the first) and locates it in the drawing.
 */
export function GraphNodeList({ nodes, edges, groups, selectedNodeId, onSelect }: Props) {
  const labels = new Map(nodes.map((n) => [n.id, n.label]));
  const documents = [...new Set(nodes.map((n) => documentOfNode(n) ?? ""))];
  return (
    <details className="graph-list">
      <summary data-testid="graph-list-toggle">List view</summary>
      {documents.map((doc) => (
        <section
          key={doc}
          className="graph-list-document"
          data-testid="graph-list-document"
          aria-label={doc === "" ? "Other nodes" : (groups.get(doc) ?? "Document")}
        >
          <h4>{doc === "" ? "Other" : (groups.get(doc) ?? "Document")}</h4>
          {(["section", "entity", "term"] as const).map((kind) => {
            const ofKind = nodes.filter((n) => n.kind === kind && (documentOfNode(n) ?? "") === doc);
            if (ofKind.length === 0) return null;
            return (
              <div key={kind} className="graph-list-group">
                <h5>{NODE_KIND_NAMES[kind]}</h5>
                <ul>
                  {ofKind.map((n) => {
                    const links = linksOf(n, edges, labels);
                    return (
                      <li key={n.id}>
                        <button
                          type="button"
                          className={n.id === selectedNodeId ? "link selected" : "link"}
                          data-testid="graph-list-node"
                          data-node-id={n.id}
                          data-kind={n.kind}
                          aria-pressed={n.id === selectedNodeId}
                          onClick={() => onSelect(n.id)}
                        >
                          {n.label}
                        </button>
                        {links.length > 0 ? (
                          <span className="graph-list-links muted small" data-testid="graph-list-links">
                            {" "}
                            {links.slice(0, MAX_LINKS).join(" · ")}
                            {links.length > MAX_LINKS ? ` · and ${links.length - MAX_LINKS} more` : ""}
                          </span>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
        </section>
      ))}
    </details>
  );
}
