import { useEffect, useMemo, useRef, useState } from "react";
import { effectiveAliases, type DocumentRecord, type ErrorInfo } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { plural } from "../lib/format.ts";
import { GraphCanvas } from "./graph-canvas.tsx";
import type { GraphHandle } from "./graph-canvas.tsx";
import { GraphControls } from "./graph-controls.tsx";
import { GraphLegend } from "./graph-legend.tsx";
import {
  documentGroupName,
  fittedNodeLimit,
  MIN_FITTED_NODES,
  NODE_LIMIT_STEP,
  nodeLabel,
  sectionNodeId,
  sectionOfEdge,
  sectionsOfNode,
  visibleGraph,
} from "./graph-model.ts";
import type { SectionRef } from "./graph-model.ts";
import { GraphNodeList } from "./graph-node-list.tsx";
import { NodeSources, type SourceItem } from "./node-sources.tsx";
import type { GraphState } from "./use-graph.ts";

interface Props {
  state: GraphState;
  theme: string;
  /** The library's documents: their names label the graph's document boxes. */
  documents: ReadonlyMap<string, DocumentRecord>;
  onOpenSection(ref: SectionRef): void;
}

interface Selection {
  generation: number;
  nodeId: string | null;
  marked: ReadonlySet<string>;
}

interface Sources {
  generation: number;
  nodeId: string;
  items: SourceItem[];
  current: number;
  loading: boolean;
  error: ErrorInfo | null;
  truncated: boolean;
}

interface View {
  generation: number;
  /** Nodes shown (before the pinned ones); null: as many as the canvas holds at a readable size. */
  limit: number | null;
  /** Fewer nodes than the pane's area affords, after a first drawing did not fit it at a readable size. */
  fitted?: number;
  /** Nodes an expansion added: shown whatever the limit. */
  pinned: ReadonlySet<string>;
  /** What the last expansion did, said in the footer. */
  expansion: { nodeId: string; added: number } | null;
  /** The nodes the canvas brings into view after an expansion. */
  reveal?: { ids: readonly string[]; seq: number };
}

const NOTHING: ReadonlySet<string> = new Set();

export function GraphPane({ state, theme, documents, onOpenSection }: Props) {
  const { graph, generation } = state;
  const handle = useRef<GraphHandle>(null);
  // All reset when a new answer replaces the graph: a stale limit or selection would mislead.
  const fresh: View = { generation, limit: null, pinned: NOTHING, expansion: null };
  const [viewState, setView] = useState<View>(fresh);
  const [selectionState, setSelection] = useState<Selection>({ generation, nodeId: null, marked: NOTHING });
  const [sourcesState, setSources] = useState<Sources | null>(null);
  const view = viewState.generation === generation ? viewState : fresh;
  const selection = selectionState.generation === generation ? selectionState : { generation, nodeId: null, marked: NOTHING };
  const sources = sourcesState !== null && sourcesState.generation === generation && sourcesState.nodeId === selection.nodeId ? sourcesState : null;
  // Latest selection, for answers that arrive after the user picked another node.
  const selected = useRef<{ generation: number; nodeId: string | null }>({ generation, nodeId: null });
  selected.current = { generation, nodeId: selection.nodeId };

  const groups = useMemo(() => new Map([...documents].map(([id, d]) => [id, documentGroupName(d, effectiveAliases(d))] as const)), [documents]);
  // The canvas's area decides how many nodes are drawn at first, so labels stay readable. It is
  // measured when the window changes size, not when panels beside the graph open and close: a
  // node count following every such change would lay the graph out again under the user's pointer.
  const stage = useRef<HTMLDivElement>(null);
  const [stageSize, setStageSize] = useState({ w: 0, h: 0 });
  useEffect(() => {
    const element = stage.current;
    if (element === null) return;
    const measure = (): void =>
      setStageSize((was) => (was.w === element.clientWidth && was.h === element.clientHeight ? was : { w: element.clientWidth, h: element.clientHeight }));
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);
  const limit = view.limit ?? Math.min(fittedNodeLimit(stageSize.w * stageSize.h), view.fitted ?? Number.POSITIVE_INFINITY);
  // Until the user asks for more, the answer's spine is cut to the pane's height; "show more" draws it all.
  const fitHeight = view.limit === null ? stageSize.h : 0;
  const visible = useMemo(() => visibleGraph(graph, limit, view.pinned, fitHeight), [graph, limit, view.pinned, fitHeight]);
  const hidden = graph.nodes.length - visible.nodes.length;
  const sectionLabel = (sectionId: string): string => nodeLabel(graph, sectionNodeId(sectionId));

  const open = (items: SourceItem[], index: number): void => {
    const item = items[index];
    if (item !== undefined) onOpenSection(item.ref);
  };

  const selectNode = (nodeId: string): void => {
    const node = graph.nodes.find((n) => n.id === nodeId);
    if (node?.kind === "entity") {
      // An entity: every section of the library stating a fact about it, fetched; the first opens.
      setSelection({ generation, nodeId, marked: new Set([nodeId]) });
      setSources({ generation, nodeId, items: [], current: 0, loading: true, error: null, truncated: false });
      void state.entityFacts(nodeId).then((result) => {
        if (selected.current.generation !== generation || selected.current.nodeId !== nodeId) return;
        if (!result.ok) {
          // The graph's own sections of it, at least.
          const items = sectionsOfNode(graph, nodeId).map((ref) => ({ sectionId: ref.sectionId, label: sectionLabel(ref.sectionId), detail: ref.via, ref }));
          setSources({ generation, nodeId, items, current: 0, loading: false, error: result.error, truncated: false });
          open(items, 0);
          return;
        }
        const items = result.value.sections.map((s) => ({
          sectionId: s.sectionId,
          label: s.label,
          detail: `${s.role === "subject" ? "" : `as ${s.role}: `}${s.fact}${s.facts > 1 ? ` (+${s.facts - 1} more here)` : ""}`,
          ref: { sectionId: s.sectionId, via: s.fact, highlight: s.span, page: s.page },
        }));
        setSources({ generation, nodeId, items, current: 0, loading: false, error: null, truncated: result.value.truncated });
        setSelection({ generation, nodeId, marked: new Set([nodeId, ...items.map((i) => sectionNodeId(i.sectionId))]) });
        open(items, 0);
      });
      return;
    }
    const refs = sectionsOfNode(graph, nodeId);
    const items = refs.map((ref) => ({ sectionId: ref.sectionId, label: sectionLabel(ref.sectionId), detail: ref.via === "section" ? "" : ref.via, ref }));
    setSelection({ generation, nodeId, marked: new Set([nodeId, ...refs.map((r) => sectionNodeId(r.sectionId))]) });
    setSources({ generation, nodeId, items, current: 0, loading: false, error: null, truncated: false });
    open(items, 0);
  };

  const step = (index: number): void => {
    if (sources === null || index < 0 || index >= sources.items.length) return;
    setSources({ ...sources, current: index });
    open(sources.items, index);
  };

  const expand = async (nodeId: string): Promise<void> => {
    const added = await state.expand(nodeId);
    // What the user asked for is shown, beyond the cap, and marked; the footer says how many came.
    setView((v) => {
      const base = v.generation === generation ? v : fresh;
      return {
        ...base,
        pinned: new Set([...base.pinned, ...added]),
        expansion: { nodeId, added: added.length },
        ...(added.length > 0 ? { reveal: { ids: [nodeId, ...added], seq: (base.reveal?.seq ?? 0) + 1 } } : {}),
      };
    });
    if (added.length > 0) setSelection({ generation, nodeId, marked: new Set([nodeId, ...added]) });
  };

  const selectedNode = selection.nodeId === null ? undefined : graph.nodes.find((n) => n.id === selection.nodeId);

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
      <div className="graph-stage" ref={stage}>
        <GraphCanvas
          ref={handle}
          nodes={visible.nodes}
          edges={visible.edges}
          groups={groups}
          marked={selection.marked}
          selectedNodeId={selection.nodeId}
          theme={theme}
          {...(view.reveal === undefined ? {} : { reveal: view.reveal })}
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
          onOverflow={(share) => {
            // Drawn whole only below the smallest zoom (labels under 11 px): fewer nodes, as the square
            // root of the share that fitted allows, until it fits or few are left; "show more" draws the rest.
            if (view.limit !== null || view.pinned.size > 0) return;
            const next = Math.max(MIN_FITTED_NODES, Math.floor(visible.nodes.length * Math.sqrt(share)));
            if (next < visible.nodes.length) setView((v) => (v.generation === generation ? { ...v, fitted: next } : { ...fresh, fitted: next }));
          }}
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
          <button type="button" className="quiet small" data-testid="graph-show-more" onClick={() => setView({ ...view, limit: limit + NODE_LIMIT_STEP })}>
            Show {Math.min(hidden, NODE_LIMIT_STEP)} more
          </button>
        ) : null}
        {view.expansion !== null ? (
          <span className="muted small graph-expanded" data-testid="graph-expanded" aria-live="polite" title={nodeLabel(graph, view.expansion.nodeId)}>
            {view.expansion.added === 0 ? "No new neighbours" : `${plural(view.expansion.added, "node")} added`}
          </span>
        ) : null}
        <span className="muted small graph-hint">Click to open · double-click to expand · point at a link to name it</span>
      </div>
      {state.error !== null ? <ErrorMessage error={state.error} /> : null}
      {selection.nodeId !== null ? (
        <NodeSources
          nodeLabel={nodeLabel(graph, selection.nodeId)}
          kind={selectedNode?.kind ?? "section"}
          sources={sources?.items ?? []}
          current={sources?.current ?? 0}
          loading={sources?.loading ?? false}
          error={sources?.error ?? null}
          truncated={sources?.truncated ?? false}
          onOpen={step}
          onExpand={() => {
            if (selection.nodeId !== null) void expand(selection.nodeId);
          }}
          expanding={state.expanding === selection.nodeId}
        />
      ) : null}
      <GraphLegend />
      <GraphNodeList
        nodes={visible.nodes}
        edges={visible.edges}
        groups={groups}
        selectedNodeId={selection.nodeId}
        onSelect={(nodeId) => {
          selectNode(nodeId);
          handle.current?.center(nodeId);
        }}
      />
    </section>
  );
}
