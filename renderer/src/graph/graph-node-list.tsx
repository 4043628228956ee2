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

/** A node's links as read aloud, each once: several triplets can state the same link. */
function linksOf(ids: ReadonlySet<string>, edges: readonly SubgraphEdge[], labels: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const e of edges) {
    if (e.kind === "in-section") continue;
    if (ids.has(e.source)) out.add(`${e.label} → ${labels.get(e.target) ?? e.target}`);
    else if (ids.has(e.target)) out.add(`← ${e.label} ${labels.get(e.source) ?? e.source}`);
  }
  return [...out];
}

/**
 * Nodes of one kind in one document, one entry per label: the parts of a long provision, or an
 * entity drawn from two sections, are one line of the list (the first node stands for them).
 */
function byLabel(nodes: readonly SubgraphNode[]): Array<{ node: SubgraphNode; ids: Set<string> }> {
  const entries = new Map<string, { node: SubgraphNode; ids: Set<string> }>();
  for (const n of nodes) {
    const entry = entries.get(n.label);
    if (entry === undefined) entries.set(n.label, { node: n, ids: new Set([n.id]) });
    else entry.ids.add(n.id);
  }
  return [...entries.values()];
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
                  {byLabel(ofKind).map(({ node: n, ids }) => {
                    const links = linksOf(ids, edges, labels);
                    return (
                      <li key={n.id}>
                        <button
                          type="button"
                          className={selectedNodeId !== null && ids.has(selectedNodeId) ? "link selected" : "link"}
                          data-testid="graph-list-node"
                          data-node-id={n.id}
                          data-kind={n.kind}
                          aria-pressed={selectedNodeId !== null && ids.has(selectedNodeId)}
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
