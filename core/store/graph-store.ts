import type { ComparisonReads, ComparisonWrites } from "./ports/comparisons.ts";
import type { DocumentReads, DocumentWrites } from "./ports/documents.ts";
import type { ExtractionReads, ExtractionWrites } from "./ports/extraction.ts";
import type { GraphReads } from "./ports/graph.ts";
import type { StoreLifecycle } from "./ports/lifecycle.ts";
import type { SearchReads } from "./ports/search.ts";
import type { VectorReads, VectorWrites } from "./ports/vectors.ts";
import type { RetrievalStore } from "./retrieval-store.ts";

// The engine talks to the database only through these ports, by topic (store/ports/), readers
// apart from writers. Kuzu upstream is archived, so everything Kuzu-specific (Cypher, FTS calls,
// connection threading) stays behind them.

export type { SearchIndexShape } from "./ports/lifecycle.ts";

/** Every pure read of the library: what the read cache may serve from memory. */
export type StoreReads = DocumentReads & GraphReads & SearchReads & VectorReads & ExtractionReads & ComparisonReads & RetrievalReads;

/** Every write of rows. */
export type StoreWrites = DocumentWrites & VectorWrites & ExtractionWrites & ComparisonWrites;

/** RetrievalStore's vectors are optional (a test store may have none); the library's are not. */
type RetrievalReads = Omit<RetrievalStore, "sectionVectorsByIds">;

export interface GraphStore
  extends
    RetrievalReads,
    StoreLifecycle,
    DocumentReads,
    DocumentWrites,
    GraphReads,
    SearchReads,
    VectorReads,
    VectorWrites,
    ExtractionReads,
    ExtractionWrites,
    ComparisonReads,
    ComparisonWrites {}
