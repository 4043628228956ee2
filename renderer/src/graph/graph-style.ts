import type { StylesheetJson } from "cytoscape";
import type { SubgraphEdge, SubgraphNode } from "../../../core/contract/contract.ts";

type SubgraphNodeKind = SubgraphNode["kind"];
type SubgraphEdgeKind = SubgraphEdge["kind"];

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

export const EDGE_KIND_NAMES: Record<SubgraphEdgeKind, string> = {
  triplet: "Obligation (subject → object)",
  cites: "Cites",
  defines: "Defines",
  mentions: "Mentions",
  "in-section": "Stated in",
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

export function graphStylesheet(p: Palette): StylesheetJson {
  return [
    {
      selector: "node",
      style: {
        label: "data(short)",
        "font-size": 11,
        "font-family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
        color: p.text,
        "text-valign": "bottom",
        "text-halign": "center",
        "text-margin-y": 4,
        "text-wrap": "ellipsis",
        "text-max-width": "120px",
        "text-background-color": p.pane,
        "text-background-opacity": 0.8,
        "text-background-padding": "1px",
        "min-zoomed-font-size": 5,
        width: 22,
        height: 22,
        "border-width": 1.5,
        "border-color": p.pane,
      },
    },
    // Section labels survive further zooming out than the others: they are what an auditor cites.
    { selector: 'node[kind = "section"]', style: { shape: NODE_SHAPES.section, "background-color": p.section, width: 30, height: 20, "font-size": 12, "min-zoomed-font-size": 5 } },
    { selector: 'node[kind = "entity"]', style: { shape: NODE_SHAPES.entity, "background-color": p.entity } },
    { selector: 'node[kind = "term"]', style: { shape: NODE_SHAPES.term, "background-color": p.term, width: 24, height: 24 } },
    // Top-ranked sections are what the answer rests on: draw them larger.
    { selector: "node[rank <= 3]", style: { width: 40, height: 26, "font-weight": "bold" } },
    {
      selector: "edge",
      style: {
        width: 1.2,
        "line-color": p.border,
        "target-arrow-color": p.border,
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        "curve-style": "bezier",
        label: "data(label)",
        "font-size": 8,
        color: p.muted,
        "text-rotation": "autorotate",
        "text-background-color": p.pane,
        "text-background-opacity": 0.85,
        "text-background-padding": "1px",
        // Edge labels vanish when zoomed out far enough to be unreadable, and return on zoom.
        "min-zoomed-font-size": 7,
      },
    },
    { selector: 'edge[kind = "triplet"]', style: { "line-color": p.entity, "target-arrow-color": p.entity, width: 1.6 } },
    { selector: 'edge[kind = "cites"]', style: { "line-color": p.section, "target-arrow-color": p.section, "line-style": "dashed" } },
    { selector: 'edge[kind = "defines"]', style: { "line-color": p.term, "target-arrow-color": p.term } },
    { selector: 'edge[kind = "mentions"]', style: { "line-color": p.term, "target-arrow-color": p.term, "line-style": "dotted" } },
    { selector: 'edge[kind = "in-section"]', style: { "line-style": "dotted", label: "" } },
    { selector: ".faded", style: { opacity: 0.25 } },
    { selector: "node.marked", style: { "border-color": p.highlight, "border-width": 3.5 } },
    { selector: "edge.marked", style: { "line-color": p.highlight, "target-arrow-color": p.highlight, width: 2.5 } },
    { selector: "node:selected", style: { "border-color": p.accent, "border-width": 3.5 } },
  ];
}

/** Labels are cut for the canvas; the full text is in the side list and the tooltip. */
export function shortNodeLabel(label: string, max = 40): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
