/**
 * "should"/"should not" are recommendations (NIST, guidance). They are kept with their own modality
 * rather than dropped so the graph can show them; filter them out where only binding duties count.
 */
export type Modality = "must" | "must not" | "may" | "should" | "should not";

export interface Obligation {
  /** Noun phrase bearing the duty ("controller"); "" when the text does not name one. */
  subject: string;
  /** Modal + main verb (+ particle): "shall notify", "must not disclose", "deve presentare". */
  predicate: string;
  /** Noun phrase(s) after the verb up to a clause boundary, leading article removed. */
  object: string;
  modality: Modality;
  /** The party told, for verbs of telling ("notify the supervisory authority", "report … to the competent authority"). */
  recipient?: string;
  /**
   * True when the modal is not printed in the sentence: an imperative item of a "must:" list, or an
   * imperative requirement ("Limit system access …") of a document that addresses a party.
   */
  implicit?: boolean;
  /** Deadlines found in the obligation's clause, joined with "; ". */
  deadline?: string;
  /** True when the modal is negated ("shall not", "non può"). */
  negated: boolean;
  /** Character span of the modal ("shall", "must not", "is required to"), or of the verb of an imperative. */
  trigger?: { start: number; end: number };
  /** Character span of the sentence in the input text, end exclusive. */
  span: { start: number; end: number };
  sentence: string;
}
