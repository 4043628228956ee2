// The words that shape an English clause for the obligation rules: the modals, pronouns and
// relatives, the subordinators that cut a clause, the adverbial phrases skipped between a verb and
// its object, list markers, and the words that only look like verbs or adjectives.

export const MODALS = new Set(["shall", "must", "may", "should"]);
export const PREFILTER = /\b(?:shall|must|may|should|required to|prohibited from|obliged to|obligated to|not permitted to|permitted to)\b/i;
export const PRONOUNS = new Set(["it", "they", "he", "she"]);
export const RELATIVES = new Set(["which", "who", "that", "whom"]);
// A subordinate clause or a new clause starts after these: the subject follows the last of them.
export const CLAUSE_CUTS = new Set([
  "that",
  "which",
  "who",
  "whom",
  "whose",
  "whether",
  "if",
  "where",
  "when",
  "unless",
  "whereby",
  "while",
  "whereas",
  "because",
  "since",
  "how",
  "what",
  "why",
]);
// Adverbial phrases between a verb and its object ("shall include at least …", "shall notify without undue delay the …").
export const ADVERBIAL_PHRASES: ReadonlyArray<readonly string[]> = [
  ["at", "least"],
  ["at", "a", "minimum"],
  ["as", "a", "minimum"],
  ["in", "particular"],
  ["inter", "alia"],
  ["where", "appropriate"],
  ["as", "appropriate"],
  ["where", "applicable"],
  ["where", "relevant"],
  ["where", "necessary"],
  ["without", "undue", "delay"],
  ["without", "delay"],
  ["in", "writing"],
  ["in", "a", "timely", "manner"],
  ["on", "a", "voluntary", "basis"],
  ["at", "any", "time"],
  ["in", "advance"],
  ["as", "soon", "as", "possible"],
  ["upon", "request"],
  ["on", "request"],
  ["in", "any", "event"],
  ["in", "principle"],
  ["in", "full"],
  ["as", "applicable"],
  ["where", "feasible"],
  ["if", "necessary"],
  ["where", "possible"],
  ["as", "necessary"],
  ["as", "the", "case", "may", "be"],
  ["if", "applicable"],
  ["if", "appropriate"],
];

export const LIST_MARKER = /^(?:\(?[a-z0-9ivx]{1,4}[).]|[-–•·]|\d+(?:\.\d+)*\.?)$/i;

export const FINITE_FORMS = new Set(["is", "are", "was", "were", "been", "being", "has", "had", "does", "did", "am"]);

// -ing words that name things ("processing", "undertaking", "the following"), never a gerund clause.
export const ING_WORDS = new Set([
  "processing",
  "undertaking",
  "following",
  "reporting",
  "testing",
  "training",
  "funding",
  "marketing",
  "profiling",
  "hearing",
  "ruling",
  "finding",
  "filing",
  "setting",
  "meeting",
  "proceeding",
  "recording",
  "accounting",
  "monitoring",
  "outsourcing",
  "screening",
  "logging",
  "scanning",
  "handling",
  "building",
  "planning",
  "pricing",
  "licensing",
  "listing",
  "sharing",
]);
// "Due to …", "Prior to …", "Subject to …": prepositions that look like adjectives at the start of a sentence.
export const COMPOUND_PREPOSITIONS = new Set([
  "due",
  "prior",
  "according",
  "pursuant",
  "subject",
  "further",
  "regardless",
  "irrespective",
  "notwithstanding",
  "without",
  "contrary",
]);
