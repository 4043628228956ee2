// The knowledge graph derived from sections (schema v2): cross-references, defined terms, entities
// and triplets, each linked back to the section and character span it came from. Rule-based
// extraction fills these now; the LLM tier adds triplets with source "llm" to the same tables.

export interface CrossReferenceRecord {
  id: string;
  documentId: string;
  fromSectionId: string;
  /** null when the citation could not be resolved to a section we hold (kept, not dropped). */
  toSectionId: string | null;
  /** Set when the target is another imported document (e.g. the HIPAA guide citing 45 CFR). */
  toDocumentId: string | null;
  /** The citation as printed: "Article 6(1)(e)". */
  raw: string;
  /** Normalized target label: "Article 6". */
  label: string | null;
  pinpoint: string | null;
  /** External instrument, e.g. "Regulation (EU) No 648/2012". */
  instrument: string | null;
  start: number;
  end: number;
  resolved: boolean;
}

export interface TermRecord {
  id: string;
  documentId: string;
  term: string;
  normalizedTerm: string;
  definition: string;
  /** The section holding the definition. */
  sectionId: string;
  start: number;
  end: number;
  /** Sections (of the same document) that use the term. */
  mentionedIn: string[];
}

/**
 * Entity names (and keys) shorter than this name nothing: an empty-named node of degree 13 was an
 * empty button in the list view. The store refuses them at insert (validate-insert.ts).
 */
export const MIN_ENTITY_NAME_LENGTH = 2;

export interface EntityRecord {
  /** `${documentId}:${key}`: unique per document. */
  id: string;
  documentId: string;
  /** Canonical key (canonicalKey of the normalized name): equal keys are the same concept across documents. */
  key: string;
  name: string;
  /** e.g. "actor", "object", "term" — free text from the extractor. */
  type: string;
  /**
   * Which party it is, where the text says so (core/extract/party-types.ts): "authority",
   * "regulated party", "data subject", "client", "person"; "" or absent when it is not a party.
   */
  party?: string;
}

export type Modality = "must" | "must not" | "may" | "should" | "should not" | "fact";

export interface TripletRecord {
  id: string;
  documentId: string;
  sectionId: string;
  subjectId: string;
  subject: string;
  predicate: string;
  objectId: string;
  object: string;
  /** The party told, for verbs of telling ("notify … the supervisory authority"); absent or "" when none (schema v8). */
  recipientId?: string;
  recipient?: string;
  modality: Modality;
  deadline: string | null;
  source: "rule" | "llm";
  confidence: number;
  /** Character span of the evidence in the section text. */
  start: number;
  end: number;
  evidence: string;
}

/** A time limit printed in a section ("within 72 hours", "no later than 60 calendar days after discovery"), schema v8. */
export interface DeadlineRecord {
  id: string;
  documentId: string;
  sectionId: string;
  /** As printed, whitespace collapsed. */
  text: string;
  /** The sentence it is in (capped), for showing it in a table row. */
  sentence: string;
  /** Character span of the deadline in the section text. */
  start: number;
  end: number;
}

/** A resolved citation as the cross-document index keeps it: the section it enters, its id, the citing document. */
export interface CitationInto {
  toSectionId: string;
  id: string;
  documentId: string;
}

/** Every resolved citation and every defined term of the library (store/cross-document-index.ts). */
export interface CrossDocumentRows {
  citationsInto: CitationInto[];
  terms: TermRecord[];
}

/** Everything derived from one document, stored in the same transaction as its sections. */
export interface DerivedGraph {
  crossReferences: CrossReferenceRecord[];
  terms: TermRecord[];
  entities: EntityRecord[];
  triplets: TripletRecord[];
  /** Time limits of the document's sections (absent from graphs built before schema v8). */
  deadlines?: DeadlineRecord[];
  /** Per section id; omitted sections are not embedded (e.g. empty text). */
  sectionEmbeddings: Map<string, Float32Array>;
  /** Per triplet id. */
  tripletEmbeddings: Map<string, Float32Array>;
}

export interface ScoredId {
  id: string;
  score: number;
}

/** A triplet found by its vector, with the section it is stated in. */
export interface TripletVectorHit extends ScoredId {
  sectionId: string;
}
