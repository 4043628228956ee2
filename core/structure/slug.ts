// Section ids must survive re-imports of the same file, so they are derived from what the
// document prints (the label path), never from positions or counters, except to tell apart two
// sections that print the same path.

export function slugify(label: string): string {
  const s = label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/§/g, "sec")
    .replace(/¶/g, "par")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s.length > 0 ? s.slice(0, 60) : "x";
}

export function pathSlug(path: readonly string[]): string {
  return path.map(slugify).join("/");
}

/** Returns `slug`, or `slug~2`, `slug~3`… for repeats, in call order. */
export function uniqueSlugger(): (slug: string) => string {
  const seen = new Map<string, number>();
  return (slug) => {
    const n = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, n);
    return n === 1 ? slug : `${slug}~${n}`;
  };
}
