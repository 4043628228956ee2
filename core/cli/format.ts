// Plain-text rendering for people; --json output bypasses all of this.

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

export function pages(start: number, end: number): string {
  return start === end ? `p. ${start}` : `pp. ${start}–${end}`;
}

/** Left-aligned columns sized to their content, capped so a row fits a terminal. */
export function table(headers: string[], rows: string[][], maxWidths: number[] = []): string {
  const widths = headers.map((h, i) => {
    const cap = maxWidths[i] ?? 60;
    return Math.min(cap, Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  });
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => truncate(c, widths[i] ?? 60).padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "─".repeat(w))), ...rows.map(line)].join("\n");
}
