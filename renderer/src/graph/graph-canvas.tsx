import cytoscape from "cytoscape";
import type { Core, ElementDefinition, LayoutOptions, NodeSingular, SingularElementReturnValue } from "cytoscape";
import fcose from "cytoscape-fcose";
import { useEffect, useImperativeHandle, useRef } from "react";
import type { Ref } from "react";
import type { SubgraphEdge, SubgraphNode } from "../../../core/contract/contract.ts";
import { documentOfNode } from "./graph-model.ts";
import { graphStylesheet, LABEL_PX, readPalette, shortNodeLabel } from "./graph-style.ts";

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
  /** Document id → the name its group (compound node) shows. */
  groups: ReadonlyMap<string, string>;
  /** Node and edge ids drawn with the highlight ring. */
  marked: ReadonlySet<string>;
  selectedNodeId: string | null;
  /** Changes when the theme does, so colours are read again. */
  theme: string;
  /** Nodes to bring into view once drawn (an expansion's node and what it added); `seq` changes each time. */
  reveal?: { ids: readonly string[]; seq: number };
  onNodeTap(nodeId: string): void;
  onNodeDoubleTap(nodeId: string): void;
  onEdgeTap(edgeId: string): void;
  onBackgroundTap(): void;
  /**
   * A new drawing fits the pane whole only below the smallest zoom, where labels would be drawn
   * under their designed size: `share` is the zoom that fits over the smallest (below 1).
   */
  onOverflow?(share: number): void;
  ref?: Ref<GraphHandle>;
}

const ZOOM_STEP = 1.25;
/** Revealing a few nodes does not blow them up beyond this. */
const MAX_REVEAL_ZOOM = 1.25;

const FIT_PADDING = 24;
/** A drawing this close to fitting at the smallest zoom is left as it is (a few pixels past the padding). */
const OVERFLOW_TOLERANCE = 0.97;

/** mulberry32: a small seeded generator, so the same graph is laid out the same way every time. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the graph's node ids: its layout seed. */
function seedOf(cy: Core): number {
  let h = 0x811c9dc5;
  for (const id of cy
    .nodes()
    .map((n) => n.id())
    .sort()) {
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/**
 * fcose draws its starting positions and its spectral sampling from Math.random: run with a
 * generator seeded by the graph itself, the same answer's graph comes out the same way each time
 * it is shown (or laid out again), instead of jumping about. The layout runs synchronously
 * (animate: false), so the generator is only swapped for its duration.
 *
 * Labels are kept at least their designed size on screen (LABEL_PX) by growing them as the fitted
 * view zooms out; grown labels take room the layout did not leave, so it runs a second time,
 * from where the first left the nodes, with the labels at the size they will be drawn.
 */
function runSeededLayout(cy: Core, mode: "new" | "grown"): void {
  // A new graph's sections make the spine; a grown graph (an expansion) keeps the spine where
  // it was and lays the rest out afresh around it: new neighbours get room of their own instead
  // of piling onto the node they came from.
  if (mode === "new") cy.nodes('[kind = "section"]').data("spine", true);
  // Several documents' spines go side by side or one under the other, whichever lets the pane
  // show the whole drawing at the larger zoom (both are laid out; the other is dropped).
  const arrangements: Arrangement[] = spineColumns(cy).length >= 2 ? ["stacked", "side by side"] : ["side by side"];
  let best: { zoom: number; arrangement: Arrangement; positions: Map<string, { x: number; y: number }> } | null = null;
  for (const arrangement of arrangements) {
    laidOut(cy, arrangement);
    fitWithLabels(cy);
    const zoom = wholeViewZoom(cy);
    if (best === null || zoom > best.zoom * (1 + ARRANGEMENT_MARGIN)) best = { zoom, arrangement, positions: positionsOf(cy) };
  }
  // The last drawing laid out is on the canvas already; an earlier one is put back.
  if (best !== null && best.arrangement !== arrangements.at(-1)) {
    const kept = best.positions;
    cy.batch(() =>
      cy.nodes().forEach((n) => {
        const at = kept.get(n.id());
        if (at !== undefined && !n.isParent()) n.position(at);
      }),
    );
    fitWithLabels(cy);
  }
  if (mode === "new" && stretchToPane(cy)) fitWithLabels(cy);
}

/** A drawing is stretched at most this much along the pane's longer side. */
const MAX_STRETCH = 1.6;

/**
 * Rule "the drawing fills its pane": a drawing wider than the pane is tall (a spine with its facts
 * beside it, in the tall graph pane) left the pane's upper and lower thirds empty; its rows are
 * moved apart (or its columns, for a wide pane) until its proportions are the pane's, within
 * MAX_STRETCH. Labels keep their size, so they only gain room. Whether it moved anything.
 */
function stretchToPane(cy: Core): boolean {
  const nodes = cy.nodes().filter((n) => !n.isParent());
  if (nodes.length < 3 || cy.width() <= 0 || cy.height() <= 0) return false;
  const box = nodes.boundingBox({ includeLabels: true });
  if (box.w <= 0 || box.h <= 0) return false;
  const ratio = cy.height() / cy.width() / (box.h / box.w);
  const tall = ratio > 1;
  const factor = Math.min(MAX_STRETCH, tall ? ratio : 1 / ratio);
  if (factor < 1.05) return false;
  const cx = (box.x1 + box.x2) / 2;
  const cyMid = (box.y1 + box.y2) / 2;
  cy.batch(() =>
    nodes.forEach((n) => {
      const p = n.position();
      n.position(tall ? { x: p.x, y: cyMid + (p.y - cyMid) * factor } : { x: cx + (p.x - cx) * factor, y: p.y });
    }),
  );
  return true;
}

type Arrangement = "stacked" | "side by side";
/** The stacked drawing is kept unless the other fits at a zoom this much larger. */
const ARRANGEMENT_MARGIN = 0.05;

/** The zoom that would show the whole drawing with its labels, below the smallest zoom allowed too. */
function wholeViewZoom(cy: Core): number {
  const box = cy.elements().boundingBox();
  if (box.w <= 0 || box.h <= 0) return Number.POSITIVE_INFINITY;
  return Math.min((cy.width() - 2 * FIT_PADDING) / box.w, (cy.height() - 2 * FIT_PADDING) / box.h);
}

function positionsOf(cy: Core): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  cy.nodes().forEach((n) => {
    if (!n.isParent()) out.set(n.id(), { ...n.position() });
  });
  return out;
}

/** One seeded layout in an arrangement, with labels at the size they will be drawn. */
function laidOut(cy: Core, arrangement: Arrangement): void {
  const original = Math.random;
  Math.random = seededRandom(seedOf(cy));
  try {
    // Laid out with labels at their size, then again while the fitted zoom says they must grow
    // (each pass starts where the last left the nodes).
    let scale = 1;
    applyLabelScale(cy, scale);
    cy.layout(layoutOptions(true, spineConstraints(cy, scale, arrangement))).run();
    for (let pass = 0; pass < 2; pass++) {
      const wanted = labelScale(cy);
      if (Math.abs(wanted - scale) / scale < 0.1) break;
      scale = wanted;
      applyLabelScale(cy, scale);
      cy.layout(layoutOptions(false, spineConstraints(cy, scale, arrangement))).run();
    }
  } finally {
    Math.random = original;
  }
}

/** Distinct starting points (a golden-angle spiral) for nodes added without one: nodes stacked at (0, 0) make every edge between them undrawable. */
function spiral(i: number, at: { x: number; y: number } = { x: 0, y: 0 }): { x: number; y: number } {
  const r = 36 * Math.sqrt(i + 1);
  const a = i * 2.399963;
  return { x: at.x + r * Math.cos(a), y: at.y + r * Math.sin(a) };
}

/**
 * The answer's sections make a spine: each document's sections one under the other in the order
 * the answer ranks them, their facts and terms around them. A tall, ordered drawing fits the tall
 * graph pane and reads top to bottom like the answer, where free forces made a wide hairball.
 */
/** Room between two sections of the spine: a label's three lines, at the size they are drawn. */
const SPINE_STEP = 58;
/** Room between two documents' spines side by side. */
const SPINE_COLUMN = 420;
/** Room between two documents' spines one under the other: a document box's title and margins. */
const SPINE_GAP = 200;

/**
 * The answer's sections make a spine: each document's sections one under the other in the order
 * the answer ranks them (fixed there), their facts and terms laid out around them by the forces.
 * A tall, ordered drawing fits the tall graph pane and reads top to bottom like the answer, where
 * free forces made a wide hairball.
 */
/** Each document's spine: its sections the graph was first drawn with, in order (two at least). */
function spineColumns(cy: Core): string[][] {
  const byDocument = new Map<string, string[]>();
  // The sections the graph was first drawn with: those an expansion brings stay by what they hang from.
  cy.nodes('[kind = "section"][?spine]').forEach((n) => {
    const parent = (n.data("parent") as string | undefined) ?? "";
    byDocument.set(parent, [...(byDocument.get(parent) ?? []), n.id()]);
  });
  return [...byDocument.values()].filter((ids) => ids.length >= 2);
}

function spineConstraints(
  cy: Core,
  scale: number,
  arrangement: Arrangement,
): { fixedNodeConstraint?: Array<{ nodeId: string; position: { x: number; y: number } }> } {
  const columns = spineColumns(cy);
  if (columns.length === 0) return {};
  // Side by side, two documents made a drawing twice the pane's width, fitted only at the
  // smallest zoom, with labels cut off at both edges: one under the other fits a tall pane.
  const stacked = arrangement === "stacked";
  let top = 0;
  return {
    fixedNodeConstraint: columns.flatMap((ids, c) => {
      const placed = ids.map((nodeId, i) => ({
        nodeId,
        position: stacked ? { x: 0, y: (top + i * SPINE_STEP) * scale } : { x: c * SPINE_COLUMN * scale, y: i * SPINE_STEP * scale },
      }));
      top += ids.length * SPINE_STEP + SPINE_GAP;
      return placed;
    }),
  };
}

function layoutOptions(randomize: boolean, constraints: ReturnType<typeof spineConstraints> = {}): LayoutOptions {
  // fcose's own options are not in cytoscape's types; they pass through untouched. Compact
  // (short ideal edges, strong gravity) so an answer's graph fits its pane near zoom 1, where
  // labels need no growing; label boxes count as node size, so labels repel each other.
  const options = {
    name: "fcose",
    quality: "default",
    randomize,
    animate: false,
    fit: true,
    padding: FIT_PADDING,
    nodeDimensionsIncludeLabels: true,
    packComponents: true,
    tile: true,
    nodeRepulsion: 6000,
    idealEdgeLength: 50,
    edgeElasticity: 0.45,
    nestingFactor: 0.1,
    gravity: 0.6,
    gravityRange: 3.8,
    gravityCompound: 1.4,
    gravityRangeCompound: 1.5,
    nodeSeparation: 40,
    numIter: 2500,
    ...constraints,
  };
  return options as LayoutOptions;
}

const DOCUMENT_PREFIX = "doc:";

/**
 * Elements to draw: one compound node per document holding that document's nodes, then the
 * nodes, then the edges between drawn nodes (an edge to a node not drawn would be refused by
 * Cytoscape with an "invalid endpoints" warning).
 */
function toElements(nodes: SubgraphNode[], edges: SubgraphEdge[], groups: ReadonlyMap<string, string>): ElementDefinition[] {
  const documents = [...new Set(nodes.map(documentOfNode).filter((d): d is string => d !== null))];
  const ids = new Set(nodes.map((n) => n.id));
  return [
    ...documents.map((d) => {
      const name = groups.get(d) ?? "Document";
      return { group: "nodes" as const, data: { id: `${DOCUMENT_PREFIX}${d}`, kind: "document", label: name, short: shortNodeLabel(name, 48) } };
    }),
    ...nodes.map((n) => {
      const parent = documentOfNode(n);
      return {
        group: "nodes" as const,
        data: {
          id: n.id,
          kind: n.kind,
          label: n.label,
          short: shortNodeLabel(n.label),
          ...(parent === null ? {} : { parent: `${DOCUMENT_PREFIX}${parent}` }),
          ...(n.rank === undefined ? {} : { rank: n.rank }),
        },
      };
    }),
    ...edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({
        group: "edges" as const,
        data: { id: e.id, source: e.source, target: e.target, kind: e.kind, label: e.label },
      })),
  ];
}

type Box = { x1: number; y1: number; x2: number; y2: number };

/** The node (not a document's box) whose shape holds a point of the canvas, the smallest if several. */
function nodeAt(cy: Core, point: { x: number; y: number }): string | null {
  let found: string | null = null;
  let smallest = Number.POSITIVE_INFINITY;
  for (const n of cy.nodes('[kind != "document"]').toArray()) {
    const b = n.renderedBoundingBox({ includeLabels: false, includeOverlays: false });
    if (point.x < b.x1 || point.x > b.x2 || point.y < b.y1 || point.y > b.y2 || b.w * b.h >= smallest) continue;
    found = n.id();
    smallest = b.w * b.h;
  }
  return found;
}

const overlaps = (a: Box, b: Box): boolean => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

/**
 * Rule "labels by importance, never on top of each other": labels are drawn in order of what the
 * auditor most needs to read (the selected node, the answer's evidence, sections by rank, then the
 * best-connected names), and one that would overlap a label already drawn is hidden. Spreading
 * nodes apart cannot do this: labels keep their size on screen whatever the zoom, so a large
 * graph's labels collide at any layout. Hidden names show on pointing or selection, and all are in
 * the list view. The container says how many are shown and hidden (data-labels-*), for tests.
 */
function declutterLabels(cy: Core, element: HTMLElement): void {
  const rankOf = (n: NodeSingular): number => {
    const rank: unknown = n.data("rank");
    return typeof rank === "number" ? rank : Number.POSITIVE_INFINITY;
  };
  // A link whose name is shown (selected, or the selection's and the evidence's) competes for room
  // like a node: the selected one wins over everything but the selected node.
  const named = cy.edges("edge:selected, edge.focus").filter((e) => e.style("label") !== "");
  const order = [
    ...cy
      .nodes('[kind != "document"]')
      .toArray()
      .map((n) => ({
        n: n as SingularElementReturnValue,
        key: [n.selected() ? 0 : 2, n.hasClass("marked") ? 0 : 1, n.data("kind") === "section" ? 0 : 1, rankOf(n), -n.degree(false)],
      })),
    ...named
      .toArray()
      .map((e) => ({ n: e as SingularElementReturnValue, key: [e.selected() ? 1 : 2, e.hasClass("marked") ? 0 : 1, 1, Number.POSITIVE_INFINITY, 0] })),
  ].sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const d = (a.key[i] ?? 0) - (b.key[i] ?? 0);
      if (d !== 0) return d;
    }
    return a.n.id() < b.n.id() ? -1 : a.n.id() > b.n.id() ? 1 : 0;
  });
  const drawn: Box[] = [];
  let hidden = 0;
  cy.edges().not(named).removeClass("crowded");
  cy.batch(() => {
    for (const { n } of order) {
      const box = n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false });
      const empty = box.w === 0 || box.h === 0;
      // What the user selected is always drawn.
      if (!empty && !n.selected() && drawn.some((d) => overlaps(d, box))) {
        n.addClass("crowded");
        if (n.isNode()) hidden++;
      } else {
        n.removeClass("crowded");
        if (!empty) drawn.push(box);
      }
    }
  });
  element.dataset.labelsShown = String(drawn.length);
  element.dataset.labelsHidden = String(hidden);
}

/** Labels grow as the view zooms out, up to this factor (zoom 1/4), so they stay readable. */
const MAX_LABEL_SCALE = 4;
const LABEL_WIDTH = { node: 90, section: 130, document: 260 };

function labelScale(cy: Core): number {
  return Math.min(MAX_LABEL_SCALE, Math.max(1, 1 / cy.zoom()));
}

/** Fits and label growth alternate this many times at most (each brings the view closer to fitting). */
const FIT_PASSES = 4;

/**
 * Fits the graph with its labels in view. Labels keep their size on screen (applyLabelScale), so a
 * fit measured with the labels at one zoom leaves them too wide at the zoom it chose: labels at
 * the edges were cut off by the canvas. Fitting again with the grown labels converges in a few
 * passes.
 */
function fitWithLabels(cy: Core): void {
  for (let pass = 0; pass < FIT_PASSES; pass++) {
    cy.fit(undefined, FIT_PADDING);
    applyLabelScale(cy, labelScale(cy));
    const box = cy.elements().renderedBoundingBox({ includeLabels: true });
    if (box.x1 >= 0 && box.y1 >= 0 && box.x2 <= cy.width() && box.y2 <= cy.height()) return;
  }
}

function applyLabelScale(cy: Core, scale: number): void {
  cy.batch(() => {
    cy.nodes().forEach((n) => {
      const kind = n.data("kind") as string;
      const px = kind === "section" ? LABEL_PX.section : kind === "document" ? LABEL_PX.document : LABEL_PX.node;
      const width = kind === "document" ? LABEL_WIDTH.document : kind === "section" ? LABEL_WIDTH.section : LABEL_WIDTH.node;
      n.style({ "font-size": px * scale, "text-max-width": `${width * scale}px` });
    });
    cy.edges().style("font-size", LABEL_PX.edge * scale);
  });
}

export function GraphCanvas({
  nodes,
  edges,
  groups,
  marked,
  selectedNodeId,
  theme,
  reveal,
  onNodeTap,
  onNodeDoubleTap,
  onEdgeTap,
  onBackgroundTap,
  onOverflow,
  ref,
}: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  // The node the list view asked to locate: it stays in the middle while panels beside and above
  // the canvas (the node's sources, a tab) change its size, until the user moves the view.
  const focusRef = useRef<string | null>(null);
  const handlers = useRef({ onNodeTap, onNodeDoubleTap, onEdgeTap, onBackgroundTap, onOverflow });
  handlers.current = { onNodeTap, onNodeDoubleTap, onEdgeTap, onBackgroundTap, onOverflow };

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    preventInlineStylesheet();
    const cy = cytoscape({
      container: element,
      style: graphStylesheet(readPalette()),
      // Below this zoom, labels grown to their cap would still be drawn under their designed size:
      // a graph larger than its pane is then panned, not shrunk (declutterLabels keeps them apart).
      minZoom: 1 / MAX_LABEL_SCALE,
      maxZoom: 4,
      boxSelectionEnabled: false,
    });
    // Documents are boxes around their nodes (their events are off in the stylesheet): a tap on
    // one is a tap on the background.
    cy.on("tap", "node", (e) => handlers.current.onNodeTap(e.target.id()));
    cy.on("dbltap", "node", (e) => handlers.current.onNodeDoubleTap(e.target.id()));
    // A link drawn over a node (the selection's links are raised to keep their names readable)
    // does not take the click meant for the node: a click inside a node's shape is the node's.
    cy.on("tap", "edge", (e) => {
      const under = nodeAt(cy, e.renderedPosition);
      if (under === null) {
        handlers.current.onEdgeTap(e.target.id());
        return;
      }
      // Cytoscape selected the link it hit; the node is what was clicked.
      const link = e.target as SingularElementReturnValue;
      setTimeout(() => {
        link.unselect();
        cy.getElementById(under).select();
      }, 0);
      handlers.current.onNodeTap(under);
    });
    cy.on("tap", (e) => {
      if (e.target === cy) handlers.current.onBackgroundTap();
    });
    // The canvas has no DOM per node: the container's title is the tooltip with the full label.
    // Pointing at a node names its links; pointing at a link names it.
    cy.on("mouseover", "node, edge", (e) => {
      element.title = String(e.target.data("label") ?? "");
      element.classList.add("pointing");
      const target = e.target as SingularElementReturnValue;
      if (target.isNode()) target.addClass("pointed");
      (target.isNode() ? target.connectedEdges() : target).addClass("hover");
    });
    cy.on("mouseout", "node, edge", (e) => {
      element.title = "";
      element.classList.remove("pointing");
      const target = e.target as SingularElementReturnValue;
      if (target.isNode()) target.removeClass("pointed");
      (target.isNode() ? target.connectedEdges() : target).removeClass("hover");
    });
    // A selected link's name is drawn above all but the selected node: the names it would cover give way.
    cy.on("select unselect", "edge", () => declutterLabels(cy, element));
    // A large answer graph fitted into the pane sits zoomed out, where labels render at a fraction
    // of their size. Labels grow as the view zooms out (up to MAX_LABEL_SCALE) so they stay readable at a glance; zooming
    // in brings them back to their designed size.
    let labelFrame = 0;
    cy.on("zoom", () => {
      if (labelFrame !== 0) return;
      labelFrame = requestAnimationFrame(() => {
        labelFrame = 0;
        applyLabelScale(cy, labelScale(cy));
        declutterLabels(cy, element);
      });
    });
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
      else if (seenWhole) fitWithLabels(cy);
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
    const elements = toElements(nodes, edges, groups);
    const wanted = new Map(elements.map((el) => [el.data.id ?? "", el]));
    const stale = cy.elements().filter((el) => !wanted.has(el.id()));
    const fresh = elements.filter((el) => el.data.id !== undefined && cy.getElementById(el.data.id).empty());
    // A node whose document became known since it was drawn moves into its document's box.
    const moved = elements.filter((el) => {
      if (el.group !== "nodes" || el.data.kind === "document") return false;
      const drawn = cy.getElementById(el.data.id ?? "");
      return drawn.nonempty() && ((drawn.data("parent") as string | undefined) ?? null) !== ((el.data.parent as string | undefined) ?? null);
    });
    // Names of documents may arrive after the graph (the library loads beside it).
    for (const el of elements) {
      const drawn = el.data.kind === "document" ? cy.getElementById(el.data.id ?? "") : null;
      if (drawn !== null && drawn.nonempty() && drawn.data("label") !== el.data.label) drawn.data({ label: el.data.label, short: el.data.short });
    }
    if (stale.empty() && fresh.length === 0 && moved.length === 0) return;
    const firstDraw = cy.nodes().length === 0 || stale.nodes('[kind != "document"]').length > 0;
    const jitter = seededRandom(fresh.length + cy.nodes().length);
    cy.batch(() => {
      stale.remove();
      // New nodes start beside the node they hang from, so the incremental layout moves little;
      // the others at distinct points (never all at the origin, where their edges cannot be drawn).
      let placed = 0;
      for (const el of fresh) {
        if (el.group !== "nodes" || el.data.kind === "document") continue;
        const anchor = firstDraw
          ? undefined
          : edges.find(
              (e) => (e.source === el.data.id || e.target === el.data.id) && !cy.getElementById(e.source === el.data.id ? e.target : e.source).empty(),
            );
        const other = anchor === undefined ? null : cy.getElementById(anchor.source === el.data.id ? anchor.target : anchor.source);
        el.position = other !== null && other.nonempty() ? spiral(Math.floor(jitter() * 8), other.position()) : spiral(placed++);
      }
      // Documents first: a node's parent must exist when the node is added.
      cy.add(fresh.filter((el) => el.data.kind === "document"));
      for (const el of moved) cy.getElementById(el.data.id ?? "").move({ parent: (el.data.parent as string | undefined) ?? null });
      cy.add(fresh.filter((el) => el.data.kind !== "document"));
    });
    runSeededLayout(cy, firstDraw ? "new" : "grown");
    if (container.current !== null) declutterLabels(cy, container.current);
    // Only a new drawing asks for fewer nodes: an expansion was asked for, and is panned.
    const fits = wholeViewZoom(cy) / cy.minZoom();
    if (firstDraw && fits < OVERFLOW_TOLERANCE) handlers.current.onOverflow?.(fits);
  }, [nodes, edges, groups]);

  // After an expansion the whole graph no longer fits at a readable size: the view moves to the
  // expanded node and its new neighbours (the rest stays a pan or "fit" away).
  const revealed = useRef(0);
  useEffect(() => {
    const cy = cyRef.current;
    if (cy === null || reveal === undefined || reveal.seq === revealed.current) return;
    const wanted = new Set(reveal.ids);
    const shown = cy.nodes().filter((n) => wanted.has(n.id()));
    if (shown.empty()) return;
    revealed.current = reveal.seq;
    cy.fit(shown, FIT_PADDING * 2);
    if (cy.zoom() > MAX_REVEAL_ZOOM) cy.zoom({ level: MAX_REVEAL_ZOOM, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    applyLabelScale(cy, labelScale(cy));
    if (container.current !== null) declutterLabels(cy, container.current);
  }, [reveal, nodes, edges]);

  useEffect(() => {
    const cy = cyRef.current;
    if (cy === null) return;
    cy.batch(() => {
      cy.elements().forEach((el) => {
        if (marked.has(el.id())) el.addClass("marked");
        else el.removeClass("marked");
      });
      cy.nodes().unselect();
      // The selected node's links say what they are.
      cy.edges().removeClass("focus");
      if (selectedNodeId !== null) {
        const node = cy.getElementById(selectedNodeId);
        node.select();
        // Its obligations say what they are; citations ("Article 19(4)") run along the spine,
        // where their names would cover the sections': those show on hover.
        node.connectedEdges('[kind = "triplet"]').addClass("focus");
      }
      cy.edges()
        .filter((e) => marked.has(e.id()))
        .addClass("focus");
    });
    // The selection and the evidence come first when labels compete for room.
    if (container.current !== null) declutterLabels(cy, container.current);
  }, [marked, selectedNodeId, nodes, edges, groups]);

  useEffect(() => {
    cyRef.current?.style(graphStylesheet(readPalette()));
  }, [theme]);

  useImperativeHandle(ref, () => {
    const zoomBy = (factor: number): void => {
      const cy = cyRef.current;
      if (cy === null) return;
      cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    };
    return {
      fit: () => {
        focusRef.current = null;
        if (cyRef.current !== null) fitWithLabels(cyRef.current);
      },
      zoomIn: () => zoomBy(ZOOM_STEP),
      zoomOut: () => zoomBy(1 / ZOOM_STEP),
      reset: () => {
        if (cyRef.current !== null) runSeededLayout(cyRef.current, "grown");
      },
      center: (nodeId) => {
        const node = cyRef.current?.getElementById(nodeId);
        if (node === undefined || node.empty()) return;
        focusRef.current = nodeId;
        cyRef.current?.center(node);
      },
    };
  }, []);

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
