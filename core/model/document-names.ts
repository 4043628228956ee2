// A document's names as the user sees and edits them: the registry's aliases found at import,
// minus those the user removed, plus those the user added. Kept as three lists (not one edited
// copy) so a library rebuild re-derives the registry's part and re-applies only the user's
// edits. Pure and browser-safe: the library pane uses it through the contract.

export interface AliasFields {
  /** Found at import: the instrument registry's names, a Federal Register document's agency. */
  aliases?: string[] | undefined;
  /** Added by the user. */
  userAliases?: string[] | undefined;
  /** Registry aliases the user removed. */
  hiddenAliases?: string[] | undefined;
}

export const ALIAS_LIMITS = { perDocument: 50, chars: 120 } as const;

const fold = (alias: string): string => alias.toLowerCase();

/** Trimmed, spaces collapsed; "" when nothing is left. */
export function cleanAlias(alias: string): string {
  return alias.replace(/\s+/g, " ").trim().slice(0, ALIAS_LIMITS.chars);
}

function distinct(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const alias = cleanAlias(raw);
    if (alias === "" || seen.has(fold(alias))) continue;
    seen.add(fold(alias));
    out.push(alias);
  }
  return out;
}

/** The names the document answers to: registry aliases not removed, then the user's own. */
export function effectiveAliases(doc: AliasFields): string[] {
  const hidden = new Set((doc.hiddenAliases ?? []).map(fold));
  return distinct([...(doc.aliases ?? []).filter((a) => !hidden.has(fold(a))), ...(doc.userAliases ?? [])]);
}

/** The user lists that make `wanted` the document's effective aliases. */
export function aliasEdit(doc: AliasFields, wanted: readonly string[]): { userAliases: string[]; hiddenAliases: string[] } {
  const want = distinct(wanted).slice(0, ALIAS_LIMITS.perDocument);
  const wantSet = new Set(want.map(fold));
  const registry = distinct(doc.aliases ?? []);
  const registrySet = new Set(registry.map(fold));
  return {
    userAliases: want.filter((a) => !registrySet.has(fold(a))),
    hiddenAliases: registry.filter((a) => !wantSet.has(fold(a))),
  };
}

/** The library as question analysis reads it: each document's title and effective aliases. */
export function libraryNames(documents: ReadonlyArray<AliasFields & { id: string; title: string; fileName?: string }>): {
  documents: Array<{ id: string; title: string; aliases: string[]; fileName?: string }>;
} {
  return {
    documents: documents.map((d) => ({
      id: d.id,
      title: d.title,
      aliases: effectiveAliases(d),
      ...(d.fileName === undefined ? {} : { fileName: d.fileName }),
    })),
  };
}
