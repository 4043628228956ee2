import type { StylesheetJson } from "cytoscape";
import type { SubgraphNode } from "../../../core/contract/contract.ts";

type SubgraphNodeKind = SubgraphNode["kind"];

// Node kinds differ by shape AND colour, so the graph reads the same for colour-blind users and in
// print. Colours come from CSS variables, so the canvas follows the light/dark theme.

export const NODE_SHAPES: Record<SubgraphNodeKind, "round-rectangle" | "ellipse" | "diamond"> = {
  section: "round-rectangle",
  entity: "ellipse",
  term: "diamond",
};

export const NODE_KIND_NAMES: Record<SubgraphNodeKind, string> = {
  section: "Section",
  entity: "Entity (party, obligation object)",
  term: "Defined term",
};

interface Palette {
  text: string;
  muted: string;
  pane: string;
  border: string;
  accent: string;
  section: string;
  entity: string;
  term: string;
  highlight: string;
}

export function readPalette(element: Element = document.documentElement): Palette {
  const css = getComputedStyle(element);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--text", "#1d2330"),
    muted: v("--muted", "#5d6675"),
    pane: v("--pane", "#ffffff"),
    border: v("--border", "#dde1e7"),
    accent: v("--accent", "#2457c5"),
    section: v("--graph-section", "#3b6fd4"),
    entity: v("--graph-entity", "#1f8a70"),
    term: v("--graph-term", "#b7791f"),
    highlight: v("--graph-highlight", "#e0a800"),
  };
}

/**
 * Label sizes in screen pixels at zoom 1. The canvas scales them by 1/zoom when the view is zoomed
 * out (graph-canvas.tsx), so they are never drawn smaller than this at the default zoom.
 */
export const LABEL_PX = { node: 11, section: 12, document: 12, edge: 11 } as const;

export function graphStylesheet(p: Palette): StylesheetJson {
  return [
    {
      selector: "node",
      style: {
        label: "data(short)",
        "font-size": LABEL_PX.node,
        "font-family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
        color: p.text,
        "text-valign": "bottom",
        "text-halign": "center",
        "text-margin-y": 4,
        // Wrapped on up to three short lines (labels are cut to 36 characters): square label boxes
        // pack into the pane far better than one long line each.
        "text-wrap": "wrap",
        "text-max-width": "90px",
        "line-height": 1.15,
        "text-background-color": p.pane,
        "text-background-opacity": 0.8,
        "text-background-padding": "1px",
        "min-zoomed-font-size": 5,
        width: 22,
        height: 22,
        "border-width": 1.5,
        "border-color": p.pane,
        // Auditors click the name they read, not the 22 px shape beside it: a label is part of its node.
        "text-events": "yes",
      },
    },
    // Section labels survive further zooming out than the others: they are what an auditor cites.
    // Sections stand one under the other (the layout's spine, graph-canvas.tsx): their labels read
    // to their right, like a list.
    {
      selector: 'node[kind = "section"]',
      style: {
        shape: NODE_SHAPES.section,
        "background-color": p.section,
        width: 30,
        height: 20,
        "font-size": LABEL_PX.section,
        "min-zoomed-font-size": 5,
        "text-valign": "center",
        "text-halign": "right",
        "text-margin-x": 6,
        "text-margin-y": 0,
        "text-justification": "left",
        "text-max-width": "130px",
      },
    },
    { selector: 'node[kind = "entity"]', style: { shape: NODE_SHAPES.entity, "background-color": p.entity } },
    { selector: 'node[kind = "term"]', style: { shape: NODE_SHAPES.term, "background-color": p.term, width: 24, height: 24 } },
    // Top-ranked sections are what the answer rests on: draw them larger.
    { selector: "node[rank <= 3]", style: { width: 40, height: 26, "font-weight": "bold" } },
    // A document holds its nodes (a compound node): its name on top, a faint box around them.
    {
      selector: 'node[kind = "document"]',
      style: {
        shape: "round-rectangle",
        "background-color": p.section,
        "background-opacity": 0.05,
        "border-width": 1,
        "border-style": "dashed",
        "border-color": p.border,
        "text-valign": "top",
        "text-halign": "center",
        "text-margin-y": -2,
        "text-max-width": "260px",
        "font-size": LABEL_PX.document,
        "font-weight": "bold",
        color: p.muted,
        padding: "14px",
        "min-zoomed-font-size": 5,
        events: "no",
        "text-events": "no",
      },
    },
    {
      selector: "edge",
      style: {
        width: 1.2,
        "line-color": p.border,
        "target-arrow-color": p.border,
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        "curve-style": "bezier",
        // Edge labels only when asked for (hover, selection, the selected node's links): all of
        // them at once cover the drawing.
        label: "",
        "font-size": LABEL_PX.edge,
        color: p.text,
        "text-rotation": "autorotate",
        "text-background-color": p.pane,
        "text-background-opacity": 0.9,
        "text-background-padding": "2px",
        "min-zoomed-font-size": 5,
      },
    },
    { selector: 'edge[kind = "triplet"]', style: { "line-color": p.entity, "target-arrow-color": p.entity, width: 1.6 } },
    { selector: 'edge[kind = "cites"]', style: { "line-color": p.section, "target-arrow-color": p.section, "line-style": "dashed" } },
    { selector: 'edge[kind = "defines"]', style: { "line-color": p.term, "target-arrow-color": p.term } },
    { selector: 'edge[kind = "mentions"]', style: { "line-color": p.term, "target-arrow-color": p.term, "line-style": "dotted" } },
    { selector: 'edge[kind = "in-section"]', style: { "line-style": "dotted" } },
    // A link asked about says what it is level, on top of the nodes it crosses, on its backing: turned
    // along a steep link ("§ 164.306(a)" on a citation between two sections) it read sideways
    // across the sections' own labels.
    {
      selector: "edge.hover, edge.focus, edge:selected, edge.marked",
      style: { label: "data(label)", "text-rotation": "none", "z-compound-depth": "top", "z-index": 10 },
    },
    // "states" (a section stating a fact about a party) says nothing the shapes do not.
    { selector: 'edge[kind = "in-section"]', style: { label: "" } },
    { selector: ".faded", style: { opacity: 0.25 } },
    { selector: "node.marked", style: { "border-color": p.highlight, "border-width": 3.5 } },
    { selector: "edge.marked", style: { "line-color": p.highlight, "target-arrow-color": p.highlight, width: 2.5 } },
    { selector: "node:selected", style: { "border-color": p.accent, "border-width": 3.5 } },
    // A label that would cover a more important one is not drawn (graph-canvas.tsx
    // declutterLabels), a link's name alike; pointing at or selecting its node shows it above the others.
    { selector: "node.crowded", style: { "text-opacity": 0, "text-background-opacity": 0 } },
    { selector: "edge.crowded", style: { "text-opacity": 0, "text-background-opacity": 0 } },
    { selector: "node.crowded.pointed, node.crowded:selected", style: { "text-opacity": 1, "text-background-opacity": 0.9, "z-index": 20 } },
  ];
}

/** Labels are cut for the canvas; the full text is in the side list and the tooltip. */
export function shortNodeLabel(label: string, max = 36): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
