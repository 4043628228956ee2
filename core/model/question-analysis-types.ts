// The shapes of a question's analysis (question-analysis.ts), apart from its code so the answer
// types and the contract (browser-safe, no wink-nlp) can name them.

export type AnswerType =
  | "deadline"
  | "frequency"
  | "amount"
  | "party"
  | "definition"
  | "yes-no"
  | "permission"
  | "prohibition"
  | "requirements"
  | "procedure"
  | "application-date"
  | "scope"
  | "other";

export type YesNoModality = "permission" | "obligation" | "prohibition" | "fact";

export interface QuestionScope {
  /** Imported documents the question names (through titles, identifiers, aliases). */
  documentIds: string[];
  /** Parts of those documents it names ("the Security Rule" → ["Part 164", "Subpart C"] of the HIPAA text). */
  parts: Array<{ documentId: string; path: string[] }>;
  /** Instruments named, as written in the question, whether imported or not. */
  instruments: string[];
  /** Provision labels named: "Article 33", "Art. 19(4)", "§ 164.308", "3.1.1", "art. 16, comma 2". */
  provisions: string[];
  /** Parties named: "controller", "financial entity", "covered entity", "stazione appaltante". */
  parties: string[];
}

/** A name the question gives to what it is about (core/answer/question/question-names.ts). */
export interface QuestionName {
  /** As written in the question. */
  text: string;
  kind: "acronym" | "name";
}

export interface QuestionAnalysis {
  question: string;
  language: "en" | "it";
  answerType: AnswerType;
  /** For yes-no questions, the thing whose condition is asked ("Can a processor engage a sub-processor"). */
  condition?: string;
  /** For yes-no questions: asked about a permission, an obligation, a prohibition or a fact. */
  modality?: YesNoModality;
  /** Further things asked ("… and to whom?" → ["party"]). */
  alsoAsks: AnswerType[];
  scope: QuestionScope;
  /** The provisions as section labels ("Article 19", "§ 164.308", "Art. 16"), for matching sections. */
  provisionLabels: string[];
  /** Known instruments the question names that no imported document is (the refusal names them). */
  missingInstruments: string[];
  /** Names outside the registry and the library's aliases ("ICT", "NIST"): whether the library mentions them is for a search to say. */
  otherNames: QuestionName[];
  /** Content words (lemmas) that should appear in the answering sentence, most specific first. */
  focusTerms: string[];
}

export interface LibraryNames {
  documents: Array<{ id: string; title: string; aliases: string[]; fileName?: string }>;
}
