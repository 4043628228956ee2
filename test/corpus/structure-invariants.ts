import { expect } from "vitest";
import type { Section } from "../../core/model/section-types.ts";

// Properties every sectioning result must have, whatever the document.
export function expectWellFormed(sections: readonly Section[], pageCount: number): void {
  expect(sections.length).toBeGreaterThan(0);
  expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
  const ids = new Map(sections.map((s) => [s.id, s]));
  sections.forEach((s, i) => {
    expect(s.ordinal).toBe(i);
    expect(s.path.at(-1)).toBe(s.label);
    expect(s.pageStart).toBeGreaterThanOrEqual(1);
    expect(s.pageEnd).toBeLessThanOrEqual(pageCount);
    expect(s.pageStart).toBeLessThanOrEqual(s.pageEnd);
    // Oversized sections are split; 8,000 plus one line of slack.
    expect(s.text.length).toBeLessThanOrEqual(8_500);
    if (s.parentId !== null) {
      const parent = ids.get(s.parentId);
      expect(parent).toBeDefined();
      expect(parent?.ordinal ?? Infinity).toBeLessThan(s.ordinal);
      expect(s.level).toBe((parent?.level ?? -1) + 1);
      expect(s.path.slice(0, -1)).toEqual(parent?.path);
    } else {
      expect(s.level).toBe(0);
    }
    let last = 0;
    for (const span of s.spans) {
      expect(span.start).toBeGreaterThanOrEqual(last);
      expect(span.end).toBeLessThanOrEqual(s.text.length);
      expect(span.page).toBeGreaterThanOrEqual(s.pageStart);
      expect(span.page).toBeLessThanOrEqual(s.pageEnd);
      last = span.end;
    }
  });
}

/** Labels of non-part sections of one kind, in order ("Article 5 (part 2)" counts as Article 5). */
export function labelsOf(sections: readonly Section[], kind: Section["kind"]): string[] {
  return sections.filter((s) => s.kind === kind && !/\(part \d+\)$/.test(s.label)).map((s) => s.label);
}
