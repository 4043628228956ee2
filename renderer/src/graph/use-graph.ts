import { useCallback, useRef, useState } from "react";
import type { ClauseGraphApi, EntityFacts, ErrorInfo, Subgraph, TripletRecord } from "../../../core/contract/contract.ts";
import { EMPTY_GRAPH, graphFrom, mergeGraph } from "./graph-model.ts";
import type { GraphData } from "./graph-model.ts";

// One graph at a time: the latest answer's or search's, grown by expansions. `generation` changes
// when a new one replaces it, so the pane can reset what it shows.

export interface GraphState {
  graph: GraphData;
  /** What the graph is about: the question or the search query. */
  title: string;
  generation: number;
  expanding: string | null;
  error: ErrorInfo | null;
  show(subgraph: Subgraph, triplets: readonly TripletRecord[], title: string): void;
  /** Adds a node's neighbours; resolves to the ids of the nodes that were new (none when it failed or a new graph replaced this one). */
  expand(nodeId: string): Promise<string[]>;
  /** Every section stating a fact about an entity node, or the error. */
  entityFacts(nodeId: string): Promise<{ ok: true; value: EntityFacts } | { ok: false; error: ErrorInfo }>;
}

export function useGraph(api: ClauseGraphApi): GraphState {
  const [graph, setGraph] = useState<GraphData>(EMPTY_GRAPH);
  const [title, setTitle] = useState("");
  const [generation, setGeneration] = useState(0);
  const [expanding, setExpanding] = useState<string | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  // The graph as last set, read when an expansion returns: the new nodes are counted against it
  // here, not inside a state updater (which React runs later, after `expand` has returned).
  const current = useRef<{ graph: GraphData; generation: number }>({ graph: EMPTY_GRAPH, generation: 0 });

  const show = useCallback((subgraph: Subgraph, triplets: readonly TripletRecord[], newTitle: string) => {
    const next = graphFrom(subgraph, triplets);
    current.current = { graph: next, generation: current.current.generation + 1 };
    setGraph(next);
    setTitle(newTitle);
    setGeneration(current.current.generation);
    setError(null);
  }, []);

  const expand = useCallback(
    async (nodeId: string) => {
      const startedOn = current.current.generation;
      setExpanding(nodeId);
      const result = await api.graphNeighbors({ nodeId });
      setExpanding(null);
      // Another answer's graph replaced this one meanwhile: its neighbours do not belong there.
      if (current.current.generation !== startedOn) return [];
      if (!result.ok) {
        setError(result.error);
        return [];
      }
      setError(null);
      const { added, ...next } = mergeGraph(current.current.graph, result.value);
      current.current = { graph: next, generation: startedOn };
      setGraph(next);
      return added;
    },
    [api],
  );

  const entityFacts = useCallback((nodeId: string) => api.entityFacts({ nodeId }), [api]);

  return { graph, title, generation, expanding, error, show, expand, entityFacts };
}
