// Names and DDL of the graph, one place for the store, the migrations and the search index.

export const META_TABLE = "Meta";
export const SCHEMA_VERSION_KEY = "schemaVersion";

/** Version 1: documents, their sections and the document structure. */
export const SCHEMA_V1: readonly string[] = [
  `CREATE NODE TABLE ${META_TABLE}(key STRING PRIMARY KEY, value STRING)`,
  `CREATE NODE TABLE Document(
     id STRING PRIMARY KEY, sha256 STRING, file STRING, fileName STRING, title STRING,
     format STRING, language STRING, pages INT64, bytes INT64, sections INT64, importedAt STRING)`,
  // numberTerms: the numbers of label/heading/text as letter tokens (see fts-query.ts); it exists
  // only for the search index and is never read back into a Section.
  `CREATE NODE TABLE Section(
     id STRING PRIMARY KEY, documentId STRING, ordinal INT64, kind STRING, label STRING,
     heading STRING, path STRING[], parentId STRING, level INT64, text STRING,
     pageStart INT64, pageEnd INT64, spans STRING, numberTerms STRING)`,
  "CREATE REL TABLE PART_OF(FROM Section TO Section)",
  "CREATE REL TABLE NEXT(FROM Section TO Section)",
  "CREATE REL TABLE IN_DOCUMENT(FROM Section TO Document)",
];

/**
 * Version 2: the model-free knowledge graph. Every citation is a Reference (resolved or not, so an
 * auditor sees what the text cites even when the target is not imported) and, when resolved, also
 * a REFERS_TO edge between sections ("" stands for an absent id or label); terms link to the section defining them and the sections
 * using them. Span columns are spanStart/spanEnd because END is a Cypher keyword.
 */
export const SCHEMA_V2: readonly string[] = [
  `CREATE NODE TABLE Reference(
     id STRING PRIMARY KEY, documentId STRING, fromSectionId STRING, toSectionId STRING,
     toDocumentId STRING, raw STRING, label STRING, pinpoint STRING, instrument STRING,
     spanStart INT64, spanEnd INT64, resolved BOOLEAN)`,
  "CREATE REL TABLE CITES(FROM Section TO Reference)",
  "CREATE REL TABLE REFERS_TO(FROM Section TO Section, referenceId STRING, raw STRING, pinpoint STRING, spanStart INT64, spanEnd INT64)",
  `CREATE NODE TABLE Term(
     id STRING PRIMARY KEY, documentId STRING, term STRING, normalizedTerm STRING,
     definition STRING, sectionId STRING, spanStart INT64, spanEnd INT64)`,
  "CREATE REL TABLE DEFINED_IN(FROM Term TO Section)",
  "CREATE REL TABLE MENTIONS(FROM Section TO Term)",
];

/**
 * Version 3: obligations, prohibitions and permissions as (subject, predicate, object) triplets.
 * A triplet is a node rather than an edge so it can carry its provenance (section, character
 * span, evidence sentence), its source (`rule` now, `llm` in the model tier) and confidence, and
 * still link both entities. Entities are per document (id = documentId + canonical key); the
 * same key across documents is the same concept and is merged when shown.
 */
export const SCHEMA_V3: readonly string[] = [
  "CREATE NODE TABLE Entity(id STRING PRIMARY KEY, documentId STRING, key STRING, name STRING, type STRING)",
  `CREATE NODE TABLE Triplet(
     id STRING PRIMARY KEY, documentId STRING, sectionId STRING, subjectId STRING, subject STRING,
     predicate STRING, objectId STRING, object STRING, modality STRING, deadline STRING,
     source STRING, confidence DOUBLE, spanStart INT64, spanEnd INT64, evidence STRING)`,
  "CREATE REL TABLE STATED_IN(FROM Triplet TO Section)",
  "CREATE REL TABLE HAS_SUBJECT(FROM Triplet TO Entity)",
  "CREATE REL TABLE HAS_OBJECT(FROM Triplet TO Entity)",
  // The embedding model a document's vectors come from ("" = none yet): re-embedding after a
  // model change resumes from the documents that still lack them.
  "ALTER TABLE Document ADD embeddedWith STRING DEFAULT ''",
];

/**
 * Version 4: the LLM tier. ExtractionCache keeps each section's model output under a key of
 * (content hash, model, prompt version), so an interrupted or repeated extraction redoes only
 * what is missing. It lives in the database rather than in files beside it so that it is written
 * with the same durability, copied with the same backup and removed with the library. STATED_IN
 * gains the evidence span: an LLM triplet merged from several sections has one edge, and one span,
 * per section (-1 on the rule tier's edges, whose span is on the triplet).
 */
export const EXTRACTION_CACHE_TABLE = "ExtractionCache";
export const SCHEMA_V4: readonly string[] = [
  `CREATE NODE TABLE ${EXTRACTION_CACHE_TABLE}(key STRING PRIMARY KEY, modelId STRING, promptVersion STRING, json STRING, createdAt STRING)`,
  "ALTER TABLE STATED_IN ADD spanStart INT64 DEFAULT -1",
  "ALTER TABLE STATED_IN ADD spanEnd INT64 DEFAULT -1",
];

/**
 * Version 5: a document's names (core/names/). `aliases` are the instrument registry's names for
 * it, found at import; `userAliases` / `hiddenAliases` are the user's additions and removals, kept
 * apart so a rebuild re-derives the first and carries the other two over. NULL reads as none.
 */
export const SCHEMA_V5: readonly string[] = [
  "ALTER TABLE Document ADD aliases STRING[]",
  "ALTER TABLE Document ADD userAliases STRING[]",
  "ALTER TABLE Document ADD hiddenAliases STRING[]",
];

/**
 * Version 6: what OCR read of a document (core/ingest/ocr/): the JSON of its OcrSummary — pages
 * read with OCR, those of low confidence, mean confidence, language — or "" when none was. The
 * library lists it with the document; each page's confidence travels with its section spans.
 */
export const SCHEMA_V6_OCR: readonly string[] = ["ALTER TABLE Document ADD ocr STRING DEFAULT ''"];

/**
 * Version 7: comparisons of two regulations (core/compare/). A Comparison belongs to its A
 * document (`documentId`, so the library check and every delete treat it like other derived rows)
 * and names B (`otherDocumentId`, "" when A was compared with the whole library, whose documents
 * at the time are `libraryDocuments`). Each A section links to its k best B sections by a
 * SIMILAR_TO edge tagged with the comparison and the embedding model, carrying the score, the
 * reasons, the flags of the obligations compared, the matching sentences, the model's verdict
 * (JSON, "" when none) and both sections' content hashes. ComparisonCache keeps what costs time to
 * redo, a pair's model verdict, under the pair's content hashes and the model: like
 * ExtractionCache, it outlives the documents, so a re-imported or edited document only costs its
 * changed sections.
 */
export const COMPARISON_TABLE = "Comparison";
export const COMPARISON_CACHE_TABLE = "ComparisonCache";
export const SCHEMA_V7_COMPARE: readonly string[] = [
  `CREATE NODE TABLE ${COMPARISON_TABLE}(
     id STRING PRIMARY KEY, documentId STRING, otherDocumentId STRING, libraryDocuments STRING[], k INT64,
     embeddingModel STRING, scorerVersion STRING, llmModel STRING, status STRING, sections INT64,
     pairsExamined INT64, createdAt STRING, updatedAt STRING)`,
  `CREATE REL TABLE SIMILAR_TO(FROM Section TO Section, comparisonId STRING, embeddingModel STRING, rank INT64,
     score DOUBLE, aHash STRING, bHash STRING, reasons STRING, flags STRING, evidence STRING, verdict STRING)`,
  `CREATE NODE TABLE ${COMPARISON_CACHE_TABLE}(key STRING PRIMARY KEY, kind STRING, modelId STRING, version STRING, json STRING, createdAt STRING)`,
];

/**
 * Version 8: questions the graph answers exactly (core/graph-query/). Entities say which
 * party they are where the text says so (`party`: authority, regulated party, data subject, client,
 * person; "" otherwise); a triplet of a verb of telling names the party told (`recipient`, and a
 * HAS_RECIPIENT edge to its entity), so "who must notify whom" is one query; every time limit a
 * section prints is a Deadline node (SETS_DEADLINE from its section), whether or not the sentence
 * gave a triplet, so "every deadline a document sets" is complete. Rows written before v8 read the
 * new columns as "".
 */
export const DEADLINE_TABLE = "Deadline";
export const SCHEMA_V8_GRAPH_QUESTIONS: readonly string[] = [
  "ALTER TABLE Entity ADD party STRING DEFAULT ''",
  "ALTER TABLE Triplet ADD recipientId STRING DEFAULT ''",
  "ALTER TABLE Triplet ADD recipient STRING DEFAULT ''",
  "CREATE REL TABLE HAS_RECIPIENT(FROM Triplet TO Entity)",
  `CREATE NODE TABLE ${DEADLINE_TABLE}(id STRING PRIMARY KEY, documentId STRING, sectionId STRING, text STRING, sentence STRING, spanStart INT64, spanEnd INT64)`,
  `CREATE REL TABLE SETS_DEADLINE(FROM Section TO ${DEADLINE_TABLE})`,
];

/**
 * Embeddings live in their own tables, one row per section or triplet, created for the embedding
 * model in use: the vector width belongs to the model, and Kuzu cannot SET a property under a
 * vector index nor re-create a dropped index under the same name, so a model change drops and
 * re-creates these tables (with their indexes) and re-embeds. Which model filled them is recorded
 * in Meta.
 */
export interface VectorTableSpec {
  table: string;
  index: string;
}

export const SECTION_VECTORS: VectorTableSpec = { table: "SectionEmbedding", index: "section_vec" };
export const TRIPLET_VECTORS: VectorTableSpec = { table: "TripletEmbedding", index: "triplet_vec" };
export const VECTOR_TABLES: readonly VectorTableSpec[] = [SECTION_VECTORS, TRIPLET_VECTORS];
export const EMBEDDING_MODEL_KEY = "embeddingModel";
export const EMBEDDING_DIMS_KEY = "embeddingDimensions";

export function vectorTableDdl(spec: VectorTableSpec, dimensions: number): string {
  return `CREATE NODE TABLE ${spec.table}(id STRING PRIMARY KEY, documentId STRING, sectionId STRING, vector FLOAT[${Math.floor(dimensions)}])`;
}

/** Nodes to delete with every edge they have: those of `table` where `where` holds for `n`. */
export interface NodeDeletion {
  table: string;
  where: string;
}

/**
 * What deleteDocument does, in order, each with `$documentId`: first the updates, then the node
 * deletions (see delete-nodes.ts for why edges go one by one, never by DETACH DELETE). Later
 * migrations that derive data from a document append here so a delete stays complete.
 */
export const DOCUMENT_CASCADE: { updates: readonly string[]; deletions: readonly NodeDeletion[] } = {
  updates: [
    // Citations from other documents into this one become unresolved again rather than dangling.
    "MATCH (r:Reference) WHERE r.toDocumentId = $documentId AND r.documentId <> $documentId SET r.toSectionId = '', r.resolved = false",
  ],
  deletions: [
    { table: "Reference", where: "n.documentId = $documentId" },
    { table: "Term", where: "n.documentId = $documentId" },
    { table: "Triplet", where: "n.documentId = $documentId" },
    { table: "Entity", where: "n.documentId = $documentId" },
    // Time limits (v8); their SETS_DEADLINE edges go with them.
    { table: DEADLINE_TABLE, where: "n.documentId = $documentId" },
    // Comparisons with it on either side (v7); their SIMILAR_TO edges go with the sections.
    { table: "Comparison", where: "n.documentId = $documentId OR n.otherDocumentId = $documentId" },
    { table: "Section", where: "n.documentId = $documentId" },
    { table: "Document", where: "n.id = $documentId" },
  ],
};
