export function pageRange(start: number, end: number): string {
  return start === end || end < start ? `p. ${start}` : `pp. ${start}–${end}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The last segment of a path from either platform (the renderer has no `path` module). */
export function baseName(file: string): string {
  const parts = file.split(/[/\\]/);
  return parts[parts.length - 1] ?? file;
}

const IMPORTABLE = /\.(pdf|txt|md|markdown)$/i;

export function isImportable(name: string): boolean {
  return IMPORTABLE.test(name);
}

export const ACCEPTED_TYPES = ".pdf,.txt,.md,.markdown,application/pdf,text/plain,text/markdown";
