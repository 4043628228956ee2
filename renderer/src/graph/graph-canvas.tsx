import cytoscape from "cytoscape";
import type { Core, ElementDefinition, LayoutOptions } from "cytoscape";
import fcose from "cytoscape-fcose";
import { useEffect, useImperativeHandle, useRef } from "react";
import type { Ref } from "react";
import type { SubgraphEdge, SubgraphNode } from "../../../core/contract/contract.ts";
import { graphStylesheet, readPalette, shortNodeLabel } from "./graph-style.ts";

cytoscape.use(fcose);

// Cytoscape injects a <style> into <head> unless an element with this id exists; the CSP forbids
// inline styles, so a placeholder stands in and styles.css gives the container its position.
const CYTOSCAPE_STYLESHEET_ID = "__________cytoscape_stylesheet";

function preventInlineStylesheet(): void {
  if (document.getElementById(CYTOSCAPE_STYLESHEET_ID) !== null) return;
  const placeholder = document.createElement("meta");
  placeholder.id = CYTOSCAPE_STYLESHEET_ID;
  document.head.append(placeholder);
}

export interface GraphHandle {
  fit(): void;
  zoomIn(): void;
  zoomOut(): void;
  /** Lays the graph out afresh and fits it. */
  reset(): void;
  /** Brings a node to the middle of the view (used by the list view to locate a node). */
  center(nodeId: string): void;
}

interface Props {
  nodes: SubgraphNode[];
  edges: SubgraphEdge[];
  /** Node and edge ids drawn with the highlight ring. */
  marked: ReadonlySet<string>;
  selectedNodeId: string | null;
  /** Changes when the theme does, so colours are read again. */
  theme: string;
  onNodeTap(nodeId: string): void;
  onNodeDoubleTap(nodeId: string): void;
  onEdgeTap(edgeId: string): void;
  onBackgroundTap(): void;
  ref?: Ref<GraphHandle>;
}

const ZOOM_STEP = 1.25;

const FIT_PADDING = 24;

function layoutOptions(randomize: boolean): LayoutOptions {
  // fcose's own options are not in cytoscape's types; they pass through untouched.
  const options = {
    name: "fcose",
    quality: "default",
    randomize,
    animate: false,
    fit: true,
    padding: FIT_PADDING,
    nodeDimensionsIncludeLabels: true,
    packComponents: true,
    nodeRepulsion: 5000,
    idealEdgeLength: 70,
    edgeElasticity: 0.45,
    nodeSeparation: 60,
  };
  return options as LayoutOptions;
}

function toElements(nodes: SubgraphNode[], edges: SubgraphEdge[]): ElementDefinition[] {
  return [
    ...nodes.map((n) => ({
      group: "nodes" as const,
      data: { id: n.id, kind: n.kind, label: n.label, short: shortNodeLabel(n.label), ...(n.rank === undefined ? {} : { rank: n.rank }) },
    })),
    ...edges.map((e) => ({
      group: "edges" as const,
      data: { id: e.id, source: e.source, target: e.target, kind: e.kind, label: e.label },
    })),
  ];
}

const MAX_LABEL_SCALE = 2;

function applyLabelScale(cy: Core): void {
  const scale = Math.min(MAX_LABEL_SCALE, Math.max(1, 1 / cy.zoom()));
  cy.batch(() => {
    cy.nodes().forEach((n) => {
      n.style("font-size", (n.data("kind") === "section" ? 12 : 11) * scale);
    });
    cy.edges().style("font-size", 8 * scale);
  });
}

export function GraphCanvas({ nodes, edges, marked, selectedNodeId, theme, onNodeTap, onNodeDoubleTap, onEdgeTap, onBackgroundTap, ref }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  // The node the list view asked to locate: it stays in the middle while panels beside and above
  // the canvas (the node's sources, a tab) change its size, until the user moves the view.
  const focusRef = useRef<string | null>(null);
  const handlers = useRef({ onNodeTap, onNodeDoubleTap, onEdgeTap, onBackgroundTap });
  handlers.current = { onNodeTap, onNodeDoubleTap, onEdgeTap, onBackgroundTap };

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    preventInlineStylesheet();
    const cy = cytoscape({
      container: element,
      style: graphStylesheet(readPalette()),
      minZoom: 0.15,
      maxZoom: 4,
      boxSelectionEnabled: false,
    });
    cy.on("tap", "node", (e) => handlers.current.onNodeTap(e.target.id()));
    cy.on("dbltap", "node", (e) => handlers.current.onNodeDoubleTap(e.target.id()));
    cy.on("tap", "edge", (e) => handlers.current.onEdgeTap(e.target.id()));
    cy.on("tap", (e) => {
      if (e.target === cy) handlers.current.onBackgroundTap();
    });
    // The canvas has no DOM per node: the container's title is the tooltip with the full label.
    cy.on("mouseover", "node, edge", (e) => {
      element.title = String(e.target.data("label") ?? "");
      element.classList.add("pointing");
    });
    cy.on("mouseout", "node, edge", () => {
      element.title = "";
      element.classList.remove("pointing");
    });
    // A 60-node answer graph fitted into the pane sits at zoom ~0.5, where 11 px labels render at
    // 5 px. Labels grow as the view zooms out (up to 2x) so they stay readable at a glance; zooming
    // in brings them back to their designed size.
    let labelFrame = 0;
    cy.on("zoom", () => {
      if (labelFrame !== 0) return;
      labelFrame = requestAnimationFrame(() => {
        labelFrame = 0;
        applyLabelScale(cy);
      });
    });
    cy.on("layoutstop", () => applyLabelScale(cy));
    // Panels open and close beside the graph: keep the point the user was looking at in the middle.
    const dropFocus = (): void => {
      focusRef.current = null;
    };
    cy.on("dragpan scrollzoom pinchzoom layoutstart", dropFocus);
    let size = { w: element.clientWidth, h: element.clientHeight };
    const observer = new ResizeObserver(() => {
      const w = element.clientWidth;
      const h = element.clientHeight;
      if (w === size.w && h === size.h) return;
      // A graph seen whole (as laid out, e.g. drawn while the pane was still small) is fitted to
      // the new size; one the user has zoomed into keeps its centre.
      const box = cy.elements().renderedBoundingBox();
      const seenWhole = cy.elements().length > 0 && box.x1 >= -1 && box.y1 >= -1 && box.x2 <= size.w + 1 && box.y2 <= size.h + 1;
      const pan = cy.pan();
      cy.resize();
      const focused = focusRef.current === null ? null : cy.getElementById(focusRef.current);
      if (focused !== null && focused.nonempty()) cy.center(focused);
      else if (seenWhole) cy.fit(undefined, FIT_PADDING);
      else cy.pan({ x: pan.x + (w - size.w) / 2, y: pan.y + (h - size.h) / 2 });
      size = { w, h };
    });
    observer.observe(element);
    cyRef.current = cy;
    return () => {
      observer.disconnect();
      if (labelFrame !== 0) cancelAnimationFrame(labelFrame);
      cy.destroy();
      cyRef.current = null;
    };
  }, []);

  // Diff rather than rebuild, so expanding a node keeps everyone else where the user saw them.
  useEffect(() => {
    const cy = cyRef.current;
    if (cy === null) return;
    const wanted = new Set([...nodes.map((n) => n.id), ...edges.map((e) => e.id)]);
    const stale = cy.elements().filter((el) => !wanted.has(el.id()));
    const fresh = toElements(nodes, edges).filter((el) => el.data.id !== undefined && cy.getElementById(el.data.id).empty());
    if (stale.empty() && fresh.length === 0) return;
    const firstDraw = cy.nodes().length === 0 || stale.nodes().length > 0;
    cy.batch(() => {
      stale.remove();
      if (!firstDraw) {
        // New nodes start beside the node they hang from, so the incremental layout moves little.
        for (const el of fresh) {
          if (el.group !== "nodes") continue;
          const anchor = edges.find((e) => (e.source === el.data.id || e.target === el.data.id) && !cy.getElementById(e.source === el.data.id ? e.target : e.source).empty());
          const other = anchor === undefined ? null : cy.getElementById(anchor.source === el.data.id ? anchor.target : anchor.source);
          if (other !== null && other.nonempty()) el.position = { x: other.position("x") + Math.random() * 40 - 20, y: other.position("y") + Math.random() * 40 - 20 };
        }
      }
      cy.add(fresh);
    });
    cy.layout(layoutOptions(firstDraw)).run();
  }, [nodes, edges]);

  useEffect(() => {
    const cy = cyRef.current;
    if (cy === null) return;
    cy.batch(() => {
      cy.elements().forEach((el) => {
        if (marked.has(el.id())) el.addClass("marked");
        else el.removeClass("marked");
      });
      cy.nodes().unselect();
      if (selectedNodeId !== null) cy.getElementById(selectedNodeId).select();
    });
  }, [marked, selectedNodeId, nodes, edges]);

  useEffect(() => {
    cyRef.current?.style(graphStylesheet(readPalette()));
  }, [theme]);

  useImperativeHandle(
    ref,
    () => {
      const zoomBy = (factor: number): void => {
        const cy = cyRef.current;
        if (cy === null) return;
        cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
      };
      return {
        fit: () => {
          focusRef.current = null;
          cyRef.current?.fit(undefined, FIT_PADDING);
        },
        zoomIn: () => zoomBy(ZOOM_STEP),
        zoomOut: () => zoomBy(1 / ZOOM_STEP),
        reset: () => cyRef.current?.layout(layoutOptions(true)).run(),
        center: (nodeId) => {
          const node = cyRef.current?.getElementById(nodeId);
          if (node === undefined || node.empty()) return;
          focusRef.current = nodeId;
          cyRef.current?.center(node);
        },
      };
    },
    [],
  );

  return (
    <div
      ref={container}
      className="graph-canvas"
      data-testid="graph-canvas"
      data-node-count={nodes.length}
      data-edge-count={edges.length}
      role="img"
      aria-label={`Graph of ${nodes.length} nodes and ${edges.length} links; the list view below gives the same content as text`}
    />
  );
}
