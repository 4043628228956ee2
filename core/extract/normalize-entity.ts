// Normalisation of entity mentions ("the Controllers", "ICT third-party service providers") so that
// triplets and definitions written differently merge into one graph node. Deliberately conservative:
// a wrong merge ("data" → "datum", "means" → "mean") is worse than a missed one.

export interface NormalizeOptions {
  language?: "en" | "it";
  /** Acronym → expansion from the document's own definitions ("ICT" → "information and communication technology"). */
  acronyms?: ReadonlyMap<string, string>;
}

const LEADING_ARTICLES = /^(?:(?:the|a|an)\s+|(?:il|lo|la|i|gli|le|un|uno|una)\s+|(?:l|un)['’]\s*)/i;

// Words ending in "s" that are singular (or invariant) in regulatory English.
const INVARIANT = new Set([
  "data",
  "means",
  "news",
  "series",
  "species",
  "status",
  "analysis",
  "basis",
  "business",
  "access",
  "process",
  "address",
  "class",
  "loss",
  "gross",
  "less",
  "thesis",
  "crisis",
  "diagnosis",
  "axis",
  "bias",
  "corpus",
  "campus",
  "virus",
  "consensus",
  "census",
  "surplus",
  "bonus",
  "focus",
  "apparatus",
  "economics",
  "statistics",
  "ethics",
  "physics",
  "logistics",
  "politics",
  "analytics",
  "mathematics",
  "headquarters",
  "premises",
  "arrears",
  "goods",
  "proceeds",
  "savings",
  "earnings",
  "damages",
  "terms",
  "alias",
  "gas",
  "canvas",
  "atlas",
  "lens",
  "chaos",
  "kudos",
  "ois",
  "this",
  "his",
  "its",
  "us",
  "yes",
  "was",
  "has",
  "is",
  "does",
  "always",
  "whereas",
  "perhaps",
  "across",
  "unless",
  "thus",
  "plus",
]);

const IRREGULAR: Record<string, string> = {
  criteria: "criterion",
  phenomena: "phenomenon",
  children: "child",
  people: "person",
  persons: "person",
  men: "man",
  women: "woman",
  indices: "index",
  appendices: "appendix",
  matrices: "matrix",
  analyses: "analysis",
  bases: "basis",
  crises: "crisis",
  theses: "thesis",
  diagnoses: "diagnosis",
  annexes: "annex",
};

/** Singular of one English word, or the word unchanged when unsure. */
export function singularizeWord(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3 || INVARIANT.has(w)) return word;
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]ies$/.test(w)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x|zz)es$/.test(w)) return word.slice(0, -2);
  if (/(?:ss|us|is|ous|ics|'s|’s)$/.test(w)) return word;
  if (/[a-z]s$/.test(w)) return word.slice(0, -1);
  return word;
}

/** Each acronym the document defines replaced by its expansion ("ICT-related" → "information and communication technology-related"). */
export function expandAcronyms(text: string, acronyms: ReadonlyMap<string, string> | undefined): string {
  if (!acronyms || acronyms.size === 0) return text;
  // Acronyms are case-sensitive in the source ("ICT"), often glued to a hyphen ("ICT-related"),
  // and defined in the plural or the singular ("ESAs" / "ESA").
  return text.replace(/\b[A-Z][A-Za-z0-9&]*[A-Z0-9]s?\b/g, (tok) => acronyms.get(tok) ?? acronyms.get(tok.replace(/s$/, "")) ?? acronyms.get(`${tok}s`) ?? tok);
}

/**
 * Display-friendly normal form: acronyms expanded, lowercase, leading article removed, the head
 * (last) word singularised for English, quotes and stray punctuation removed, whitespace collapsed.
 */
export function normalizeEntity(text: string, options: NormalizeOptions = {}): string {
  let s = text.normalize("NFKC");
  s = expandAcronyms(s, options.acronyms);
  s = s
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”«»"]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  // Trim surrounding punctuation but keep inner hyphens and apostrophes ("third-party", "l'operatore").
  s = s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})]+$/gu, "");
  for (let prev = ""; prev !== s;) {
    prev = s;
    s = s.replace(LEADING_ARTICLES, "");
  }
  if ((options.language ?? "en") === "en") {
    // Possessives name the same entity: "data subject's" → "data subject".
    s = s.replace(/(\p{L})'s(?![\p{L}])/gu, "$1");
    const words = s.split(" ");
    const last = words.length - 1;
    const head = words[last];
    if (head !== undefined) words[last] = singularizeWord(head);
    s = words.join(" ");
  }
  return s;
}

/** Key for merging: normal form with hyphens, apostrophes and other punctuation folded to spaces. */
export function canonicalKey(text: string, options: NormalizeOptions = {}): string {
  return normalizeEntity(text, options)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}
