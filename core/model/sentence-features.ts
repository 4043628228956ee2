// What a candidate sentence is scored on when answering a question (core/answer/compose/sentence-score.ts
// weighs them): named here because an answer's trace carries each sentence's features to the UI.

export const SENTENCE_FEATURES = [
  /** IDF-weighted share of the question's words in the sentence (and the opening of the list item it continues). */
  "coverage",
  /** Share of the question's words in the section's label and heading. */
  "heading",
  /** How far the sentence's embedding stands above the pool's median cosine with the question, 0–1. */
  "similarity",
  /** Its section's answer score over the best section's, 0–1 (answer-ranking.ts); 1 / rank when not ranked for an answer. */
  "rank",
  /** It says what the question's type asks for (answer-cues.ts): 1 for the strongest cue, 0.5 for another. */
  "cue",
  /** A rule-based triplet (obligation, prohibition, permission) has its evidence in the sentence. */
  "triplet",
  /** Its section is the provision the question names ("… under Article 33"). */
  "namedProvision",
  /** It defines the very term the question asks about ("'processor' means …"). */
  "definedTerm",
  /** It introduces a list ("… shall at least:") and the question asks for one. */
  "listLeadIn",
  /** For a list's lead-in: the question's words over the lead-in and its points together. */
  "listCoverage",
  /** It names a party the question names ("covered entity", "financial entity"). */
  "party",
  /**
   * It states a requirement: an imperative ("Implement …", "Use multifactor authentication …", as
   * CFR standards and NIST requirements are worded) or shall/must. NIST's discussion of a
   * requirement shares its words and outranked it.
   */
  "normative",
  /** The question's words over the whole paragraph the sentence sits in (its points included): auditors cite paragraphs. */
  "paragraph",
  /** It also says what the question further asks ("… and to whom?": the authority it names). */
  "alsoCue",
  /**
   * The party the question asks about as the one who acts ("When must a processor tell the
   * controller …?": the processor) is the sentence's subject, before its shall/must.
   */
  "actor",
  /**
   * The question's threshold ("500 or more individuals"): 1 when the sentence states it on the same
   * side, −1 when it states that number on the other side ("less than 500": the rule's other case).
   */
  "threshold",
  /**
   * The question's words it lacks but says in a near word ("visitors" for "guests"): their
   * IDF-weighted share, each discounted by how near (near-words.ts); 0 without word vectors.
   */
  "nearWords",
] as const;

export type SentenceFeature = (typeof SENTENCE_FEATURES)[number];
export type SentenceFeatures = Record<SentenceFeature, number>;
