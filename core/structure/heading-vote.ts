import type { FlowLine } from "./flow.ts";
import type { HeadingCandidate } from "./heading-types.ts";
import type { LayoutStats } from "./layout-stats.ts";
import { isBold } from "./layout-stats.ts";

// A document prints its real headings of one kind the same way, while the look-alikes (contents
// lists, mapping tables, cross-references at a line start) are set plainer or smaller. So per
// group: if a good share of candidates is bold, bold is required; if a good share is set in a
// large size, that size (less a tolerance for headings set a point smaller) is required.

const SHARE = 0.35;
/** Headings of one kind set a point or two smaller than their siblings still count. */
const SIZE_TOLERANCE = 0.2;

export interface GroupStyle {
  bold: boolean;
  minSize: number;
}

export function prominenceThresholds(raw: ReadonlyArray<{ line: FlowLine; candidate: HeadingCandidate }>, stats: LayoutStats): Map<string, GroupStyle> {
  const byGroup = new Map<string, FlowLine[]>();
  for (const { line, candidate } of raw) {
    const list = byGroup.get(candidate.group) ?? [];
    list.push(line);
    byGroup.set(candidate.group, list);
  }
  const out = new Map<string, GroupStyle>();
  if (stats.plain) return out;
  for (const [group, lines] of byGroup) {
    if (lines.length < 3) continue;
    const need = Math.max(2, SHARE * lines.length);
    const bold = lines.filter((l) => isBold(l.line, stats)).length >= need;
    const sizes = [...new Set(lines.map((l) => Math.round(l.line.fontSize * 2) / 2))].sort((a, b) => b - a);
    let minSize = 0;
    for (const size of sizes) {
      if (lines.filter((l) => l.line.fontSize >= size - 0.25).length >= need) {
        minSize = size - Math.max(1.5, size * SIZE_TOLERANCE);
        break;
      }
    }
    out.set(group, { bold, minSize });
  }
  return out;
}

export function meetsGroupStyle(line: FlowLine, style: GroupStyle | undefined, stats: LayoutStats): boolean {
  if (style === undefined) return true;
  if (style.bold && !isBold(line.line, stats)) return false;
  return line.line.fontSize >= style.minSize;
}
