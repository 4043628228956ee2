import { useMemo, useRef, useState } from "react";
import { ErrorMessage } from "../common/error-message.tsx";
import { plural } from "../lib/format.ts";
import { GraphCanvas } from "./graph-canvas.tsx";
import type { GraphHandle } from "./graph-canvas.tsx";
import { GraphControls } from "./graph-controls.tsx";
import { GraphLegend } from "./graph-legend.tsx";
import { INITIAL_NODE_LIMIT, NODE_LIMIT_STEP, nodeLabel, sectionNodeId, sectionOfEdge, sectionsOfNode, visibleGraph } from "./graph-model.ts";
import type { SectionRef } from "./graph-model.ts";
import { GraphNodeList } from "./graph-node-list.tsx";
import { NodeSources } from "./node-sources.tsx";
import type { GraphState } from "./use-graph.ts";

interface Props {
  state: GraphState;
  theme: string;
  onOpenSection(ref: SectionRef): void;
}

interface Selection {
  generation: number;
  nodeId: string | null;
  marked: ReadonlySet<string>;
}

const NOTHING: ReadonlySet<string> = new Set();

export function GraphPane({ state, theme, onOpenSection }: Props) {
  const { graph, generation } = state;
  const handle = useRef<GraphHandle>(null);
  // Both reset when a new answer replaces the graph: a stale limit or selection would mislead.
  const [limitState, setLimit] = useState({ generation, limit: INITIAL_NODE_LIMIT });
  const [selectionState, setSelection] = useState<Selection>({ generation, nodeId: null, marked: NOTHING });
  const limit = limitState.generation === generation ? limitState.limit : INITIAL_NODE_LIMIT;
  const selection = selectionState.generation === generation ? selectionState : { generation, nodeId: null, marked: NOTHING };

  const visible = useMemo(() => visibleGraph(graph, limit), [graph, limit]);
  const hidden = graph.nodes.length - visible.nodes.length;
  const sources = useMemo(
    () => (selection.nodeId === null ? [] : sectionsOfNode(graph, selection.nodeId)),
    [graph, selection.nodeId],
  );

  const selectNode = (nodeId: string): void => {
    const refs = sectionsOfNode(graph, nodeId);
    setSelection({ generation, nodeId, marked: new Set([nodeId, ...refs.map((r) => sectionNodeId(r.sectionId))]) });
    const first = refs[0];
    if (first !== undefined) onOpenSection(first);
  };

  const expand = async (nodeId: string): Promise<void> => {
    const added = await state.expand(nodeId);
    // Expanded neighbours must be visible even beyond the cap: the user asked for them.
    if (added > 0) setLimit({ generation, limit: Math.max(limit, visible.nodes.length + added) });
  };

  const sectionLabel = (sectionId: string): string => nodeLabel(graph, sectionNodeId(sectionId));

  return (
    <section className="pane graph-pane" aria-labelledby="graph-title" data-testid="graph-pane">
      <header className="pane-header">
        <div className="pane-title">
          <h2 id="graph-title">Graph</h2>
          {state.title !== "" ? (
            <span className="muted small graph-subtitle" title={state.title}>
              {state.title}
            </span>
          ) : null}
        </div>
        <GraphControls handle={() => handle.current} />
      </header>
      <div className="graph-stage">
        <GraphCanvas
          ref={handle}
          nodes={visible.nodes}
          edges={visible.edges}
          marked={selection.marked}
          selectedNodeId={selection.nodeId}
          theme={theme}
          onNodeTap={selectNode}
          onNodeDoubleTap={(nodeId) => void expand(nodeId)}
          onEdgeTap={(edgeId) => {
            const edge = graph.edges.find((e) => e.id === edgeId);
            const ref = edge === undefined ? null : sectionOfEdge(graph, edge);
            if (edge === undefined || ref === null) return;
            setSelection({ generation, nodeId: null, marked: new Set([edgeId, sectionNodeId(ref.sectionId)]) });
            onOpenSection(ref);
          }}
          onBackgroundTap={() => setSelection({ generation, nodeId: null, marked: NOTHING })}
        />
        {graph.nodes.length === 0 ? (
          <p className="graph-empty empty" data-testid="graph-empty">
            Ask a question or search: the sections, parties and terms behind the answer appear here.
          </p>
        ) : null}
      </div>
      <div className="graph-footer">
        <span className="muted small" data-testid="graph-counts">
          {plural(visible.nodes.length, "node")} · {plural(visible.edges.length, "link")}
          {hidden > 0 ? ` · ${hidden} more hidden` : ""}
        </span>
        {hidden > 0 ? (
          <button type="button" className="quiet small" data-testid="graph-show-more" onClick={() => setLimit({ generation, limit: limit + NODE_LIMIT_STEP })}>
            Show {Math.min(hidden, NODE_LIMIT_STEP)} more
          </button>
        ) : null}
        <span className="muted small graph-hint">Click to open · double-click to expand</span>
      </div>
      {state.error !== null ? <ErrorMessage error={state.error} /> : null}
      {selection.nodeId !== null ? (
        <NodeSources
          nodeLabel={nodeLabel(graph, selection.nodeId)}
          sources={sources}
          sectionLabel={sectionLabel}
          onOpen={onOpenSection}
          onExpand={() => {
            if (selection.nodeId !== null) void expand(selection.nodeId);
          }}
          expanding={state.expanding === selection.nodeId}
        />
      ) : null}
      <GraphLegend />
      <GraphNodeList
        nodes={visible.nodes}
        selectedNodeId={selection.nodeId}
        onSelect={(nodeId) => {
          selectNode(nodeId);
          handle.current?.center(nodeId);
        }}
      />
    </section>
  );
}
