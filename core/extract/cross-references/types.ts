// The shapes of a cross-reference: the public result (a span and its targets) and the parsed
// pieces a reference is built from (unit phrases, their listed values).

export type DocumentKind = "eu" | "cfr" | "nist" | "italian" | "rules" | "generic";
export type ReferenceLanguage = "en" | "it";

export interface CrossReferenceContext {
  documentKind?: DocumentKind;
  language?: ReferenceLanguage;
}

export interface CrossReferenceTarget {
  /** Normalised section label ("Article 6", "§ 164.308", "3.1.1", "Art. 16"); null when relative. */
  label: string | null;
  /** For references relative to the current section: "paragraph 2", "comma 3", "paragraph (a)(1)". */
  relative?: string;
  /** Finer position inside the labelled unit: "(1)(e)", "(a)(1)(ii)", "comma 2". */
  pinpoint?: string;
  /** Labels of containing units when printed ("Section 2 of Chapter IV" → ["Chapter IV"]). */
  within?: string[];
  /** Set when the reference points into another legal act. */
  external?: { instrument: string };
  /** True for labels generated inside an expanded range: they may legitimately not exist. */
  rangeInterior?: boolean;
}

export interface CrossReference {
  /** Character span in the input text, end exclusive. */
  start: number;
  end: number;
  raw: string;
  targets: CrossReferenceTarget[];
}

export type UnitKind =
  | "article"
  | "chapter"
  | "section"
  | "annex"
  | "title"
  | "part"
  | "subpart"
  | "appendix"
  | "rule"
  | "requirement"
  | "paragraph-sign"
  | "paragraph"
  | "subparagraph"
  | "point"
  | "sentence"
  | "comma"
  | "lettera"
  | "punto";

export interface Item {
  value: string;
  pin: string;
  rangeInterior?: boolean;
}

export interface Phrase {
  kind: UnitKind;
  items: Item[];
  /** Text before the list for fine units that print an ordinal: "first subparagraph". */
  ordinal?: string;
}
