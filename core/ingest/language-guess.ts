// A cheap language guess for stemming and stopwords downstream: which language's function words
// are most frequent. Regulations are long and formulaic, so a few thousand words decide it.

const STOPWORDS: Record<string, ReadonlySet<string>> = {
  en: new Set("the of and to in is that for be shall by with or as on this are which an not any such from".split(" ")),
  it: new Set("il lo la le gli di del della dei delle degli che per con una un è sono al alla nel nella si non dal ai".split(" ")),
};

const MAX_WORDS = 20_000;
const MIN_HITS = 5;
/** The winner needs this many times the runner-up's hits to be trusted. */
const MARGIN = 1.5;

export function guessLanguage(texts: Iterable<string>): string {
  const hits = new Map<string, number>(Object.keys(STOPWORDS).map((lang) => [lang, 0]));
  let words = 0;
  outer: for (const text of texts) {
    for (const m of text.toLowerCase().matchAll(/\p{L}+/gu)) {
      if (++words > MAX_WORDS) break outer;
      for (const [lang, set] of Object.entries(STOPWORDS)) {
        if (set.has(m[0])) hits.set(lang, (hits.get(lang) ?? 0) + 1);
      }
    }
  }
  const ranked = [...hits.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (best === undefined || best[1] < MIN_HITS) return "und";
  if (second !== undefined && best[1] < MARGIN * second[1]) return "und";
  return best[0];
}
