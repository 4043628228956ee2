import { useCallback, useState } from "react";
import type { ClauseGraphApi, ErrorInfo, Subgraph, TripletRecord } from "../../../core/contract/contract.ts";
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
  /** Adds a node's neighbours; resolves to how many nodes were new. */
  expand(nodeId: string): Promise<number>;
}

export function useGraph(api: ClauseGraphApi): GraphState {
  const [graph, setGraph] = useState<GraphData>(EMPTY_GRAPH);
  const [title, setTitle] = useState("");
  const [generation, setGeneration] = useState(0);
  const [expanding, setExpanding] = useState<string | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const show = useCallback((subgraph: Subgraph, triplets: readonly TripletRecord[], newTitle: string) => {
    setGraph(graphFrom(subgraph, triplets));
    setTitle(newTitle);
    setGeneration((g) => g + 1);
    setError(null);
  }, []);

  const expand = useCallback(
    async (nodeId: string) => {
      setExpanding(nodeId);
      const result = await api.graphNeighbors({ nodeId });
      setExpanding(null);
      if (!result.ok) {
        setError(result.error);
        return 0;
      }
      setError(null);
      let added = 0;
      setGraph((current) => {
        const next = mergeGraph(current, result.value);
        added = next.nodes.length - current.nodes.length;
        return next;
      });
      return added;
    },
    [api],
  );

  return { graph, title, generation, expanding, error, show, expand };
}
