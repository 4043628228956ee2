// Query analysis shared by the BM25 stage and the re-scoring: which words of a question carry
// its topic. Questions are written as requests ("What specific requirements must an Authorised
// Person meet to ensure…"): the request words match nearly every rule and only dilute BM25.

const WORD = /[\p{L}\p{N}]+/gu;

// Function words plus the vocabulary of asking (not of the regulated subject matter).
const STOPWORDS = new Set(
  (
    "a an the and or nor but if then else of to in on at by for with from into onto upon about as than " +
    "so such that this these those there here it its it's itself they them their theirs we us our you your " +
    "he she his her i me my be is are was were been being am do does did doing done have has had having " +
    "can could may might must shall should will would what which who whom whose when where why how whether " +
    "any all each every some no not only also other others same very more most less least much many " +
    "under over between within without during before after above below through per via out up down off " +
    "again further once both either neither own too just one two its i.e e.g etc"
  ).split(/\s+/),
);

// Italian questions ("quali sono i requisiti per partecipare alla gara?") need the same
// treatment: articles, prepositions (with their article contractions) and the words of asking.
// Words that are also English ("non-", "state", "come", "sue", "va") are left out: ObliQA's
// English questions use "non" 119 times in 2,788 questions.
const ITALIAN_STOPWORDS = (
  "il lo la i gli le l un uno una di a da in con su per tra fra del dello della dei degli delle " +
  "al allo alla ai agli alle dal dallo dalla dai dagli dalle nel nello nella nei negli nelle sul sullo " +
  "sulla sui sugli sulle col coi e ed o od ma se che chi cui ne ci si vi mi ti è sono essere " +
  "sia siano stato stata stati ha hanno avere aver deve devono dovere può possono potere " +
  "viene vengono vanno quale quali quando dove cosa perché perche quanto quanti quanta quante " +
  "questo questa questi queste quello quella quelli quelle ogni tutti tutte tutto tutta anche più meno " +
  "molto suo sua suoi loro nostro nostra essa esso essi esse"
).split(/\s+/);
for (const word of ITALIAN_STOPWORDS) STOPWORDS.add(word);

const REQUEST_WORDS = new Set(
  (
    "specific specifically particular particularly regarding regard relation relating related respect " +
    "ensure ensuring clarify clarification explain outline detail details describe provide provided " +
    "expected expectations expect considered consider considering steps step measures measure taken take " +
    "need needs needed required requirements requirement necessary applicable apply applies " +
    "guidance context circumstances situation case cases instance example type types kind kinds way ways " +
    "please could would like know understand mean means meant " +
    // Italian: "quali adempimenti sono previsti…", "in che modo bisogna…", "indicare…"
    "previsto prevista previsti previste necessario necessaria necessari necessarie richiesto richiesta " +
    "richiesti richieste bisogna occorre modo modalità indicare indica spiegare descrivere sapere"
  ).split(/\s+/),
);

export interface AnalyzedQuery {
  /** The question as typed. */
  raw: string;
  /** Lower-cased content words in order (stopwords and request words removed), unstemmed. */
  words: string[];
  /** Stems of `words`, in the same order. */
  stems: string[];
  /** The text sent to BM25: content words only, or the raw question if nothing is left. */
  bm25Text: string;
}

export interface QueryOptions {
  /** Drop the request vocabulary (default true). */
  dropRequestWords?: boolean;
}

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) out.push(m[0]);
  return out;
}

/**
 * A light suffix stripper (plural, -ing, -ed, -ation, -ment…): enough to match "notify" with
 * "notified" and "obligations" with "obligation" when comparing a query with a section. It need
 * not agree with the index's Porter stemmer; both sides of each comparison go through this.
 */
const SUFFIX_RULES: ReadonlyArray<readonly [string, string]> = [
  ["izations", "iz"],
  ["ization", "iz"],
  ["ations", "at"],
  ["ation", "at"],
  ["ments", ""],
  ["ment", ""],
  ["ities", ""],
  ["ity", ""],
  ["ings", ""],
  ["ing", ""],
  ["ies", "i"],
  ["ied", "i"],
  ["ed", ""],
  ["es", ""],
  ["s", ""],
  ["ly", ""],
  ["ive", ""],
  ["al", ""],
  ["e", ""],
  ["y", "i"],
];

export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /^\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  for (const [suffix, replacement] of SUFFIX_RULES) {
    if (!w.endsWith(suffix)) continue;
    if (suffix === "s" && (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is"))) continue;
    const base = w.slice(0, w.length - suffix.length) + replacement;
    if (base.length >= 3) {
      w = base;
      break;
    }
  }
  // A doubled final consonant left by -ing/-ed ("submitted" → "submitt") folds to one.
  if (/([bdfglmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** A stemmer that remembers: a candidate pool repeats the same words many times. */
export function memoStemmer(): (word: string) => string {
  const memo = new Map<string, string>();
  return (word) => {
    let s = memo.get(word);
    if (s === undefined) {
      s = stem(word);
      memo.set(word, s);
    }
    return s;
  };
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

export function analyzeQuery(query: string, options: QueryOptions = {}): AnalyzedQuery {
  const dropRequest = options.dropRequestWords ?? true;
  const words = tokenize(query).filter((w) => !STOPWORDS.has(w) && !(dropRequest && REQUEST_WORDS.has(w)) && (w.length > 1 || /\d/.test(w)));
  return {
    raw: query,
    words,
    stems: words.map(stem),
    bm25Text: words.length > 0 ? words.join(" ") : query,
  };
}
