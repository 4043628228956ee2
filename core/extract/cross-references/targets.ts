// From a parsed chain to targets: the finest coarse unit gives the label ("Article 6", "§ 164.308"),
// coarser ones the `within` labels, finer ones the pinpoint; a chain with no coarse unit is relative
// to the current section. Listed values multiply out into one target per combination.
import { FINE } from "./lexicon.ts";
import type { CrossReferenceContext, CrossReferenceTarget, Item, Phrase, UnitKind } from "./types.ts";

const MAX_TARGETS = 60;

function coarseLabel(kind: UnitKind, value: string, ctx: Required<CrossReferenceContext>): string {
  const it = ctx.language === "it";
  switch (kind) {
    case "article":
      return it ? `Art. ${value}` : `Article ${value}`;
    case "chapter":
      return it ? `Capo ${value}` : `Chapter ${value}`;
    case "section":
      // NIST numbers its sections "3.1"; the sectioner labels them by the bare number.
      return /\./.test(value) ? value : `Section ${value}`;
    case "annex":
      return it ? `Allegato ${value}` : `Annex ${value}`;
    case "title":
      return it ? `Titolo ${value}` : `Title ${value}`;
    case "part":
      return it ? `Parte ${value}` : `Part ${value}`;
    case "subpart":
      return `Subpart ${value}`;
    case "appendix":
      return `Appendix ${value}`;
    case "rule":
      return `Rule ${value}`;
    case "requirement":
      return value;
    case "paragraph-sign":
      return `§ ${value}`;
    default:
      return value;
  }
}

function finePart(p: Phrase, item: Item): string {
  if (p.ordinal) return p.ordinal;
  switch (p.kind) {
    case "paragraph":
      return /^\d/.test(item.value) ? `(${item.value})` : item.value;
    case "point":
      return /^\d/.test(item.value) ? `point ${item.value}` : item.value;
    case "comma":
      return `comma ${item.value}`;
    case "lettera":
      return `lett. ${item.value}`;
    case "punto":
      return `punto ${item.value}`;
    default:
      return item.value;
  }
}

function relativeText(p: Phrase, item: Item): string {
  if (p.ordinal) return p.ordinal;
  if (p.kind === "paragraph") return `paragraph ${item.value}`;
  if (p.kind === "point") return /^\d/.test(item.value) ? `point ${item.value}` : `point ${item.value}`;
  return finePart(p, item);
}

/** Joins pinpoint parts: "(1)" + "(e)" → "(1)(e)"; "(4)" + "first subparagraph" → "(4), first subparagraph". */
function joinPin(parts: string[]): string {
  let out = "";
  for (const part of parts) {
    if (part === "") continue;
    if (out === "") out = part;
    else if (part.startsWith("(") && out.endsWith(")")) out += part;
    else out += `, ${part}`;
  }
  return out;
}

function product<T>(lists: T[][]): T[][] {
  let acc: T[][] = [[]];
  for (const list of lists) {
    const next: T[][] = [];
    for (const prefix of acc) for (const x of list) if (next.length < MAX_TARGETS) next.push([...prefix, x]);
    acc = next;
  }
  return acc;
}

export function buildTargets(ordered: Phrase[], ctx: Required<CrossReferenceContext>, instrument: string | null): CrossReferenceTarget[] {
  const coarseIdx: number[] = [];
  ordered.forEach((p, i) => {
    if (!FINE.has(p.kind)) coarseIdx.push(i);
  });
  const primaryIdx = coarseIdx.length > 0 ? (coarseIdx[coarseIdx.length - 1] ?? -1) : -1;
  const out: CrossReferenceTarget[] = [];
  for (const combo of product(ordered.map((p) => p.items))) {
    const target: CrossReferenceTarget = { label: null };
    if (primaryIdx >= 0) {
      const primary = ordered[primaryIdx];
      const item = combo[primaryIdx];
      if (!primary || !item) continue;
      target.label = coarseLabel(primary.kind, item.value, ctx);
      const within = coarseIdx.slice(0, -1).map((i) => coarseLabel(ordered[i]?.kind ?? "article", combo[i]?.value ?? "", ctx));
      if (within.length > 0) target.within = within;
      const parts = [item.pin];
      ordered.forEach((p, i) => {
        const it = combo[i];
        if (FINE.has(p.kind) && it) parts.push(finePart(p, it));
      });
      const pin = joinPin(parts);
      if (pin !== "") target.pinpoint = pin;
      if (item.rangeInterior) target.rangeInterior = true;
    } else {
      const [first, ...rest] = ordered;
      const firstItem = combo[0];
      if (!first || !firstItem) continue;
      target.relative = relativeText(first, firstItem);
      const pin = joinPin(rest.map((p, i) => finePart(p, combo[i + 1] ?? { value: "", pin: "" })));
      if (pin !== "") target.pinpoint = pin;
      if (firstItem.rangeInterior) target.rangeInterior = true;
    }
    if (instrument !== null) target.external = { instrument };
    out.push(target);
  }
  return out;
}
