import type { GraphStore, StoreReads } from "../graph-store.ts";
import { liveSchemaOf, type StoreCore } from "./kuzu-store-core.ts";
import { checkLibraryRows } from "./library-check.ts";
import { readSchemaVersion } from "./migrations.ts";
import { createReadOnlyConnection } from "./read-only-query.ts";
import { listComparisonRecords, readComparison, readComparisonCache, readComparisonEdges } from "./readers/comparisons.ts";
import { childSectionIds, documentOutlines, findDocument, getSection, getSections, listDocuments, sectionsByIds } from "./readers/documents.ts";
import { readExtractionCache } from "./readers/extraction-cache.ts";
import {
  crossDocumentRows,
  crossReferences,
  documentReferences,
  referenceIdsInto,
  termsByIds,
  termsByNormalized,
  tripletsByIds,
  tripletsForEntityKeys,
  tripletsForSections,
  tripletsOfDocument,
} from "./readers/graph.ts";
import { documentsMissingEmbeddings, readSpace, stats, tableNames } from "./readers/metadata.ts";
import { sectionVectorsOfDocuments } from "./readers/vectors.ts";
import { SECTION_VECTORS, TRIPLET_VECTORS } from "./schema.ts";

// The Kuzu store's reads, each a statement of readers/ in the read lane (lanes.ts), and its
// searches by vector (library-vectors.ts). Full-text search is kuzu-store-search.ts's.

type ReadMethods = Pick<GraphStore, Exclude<keyof StoreReads, "searchSectionIds" | "searchSections" | "nearestSections">>;

export function createStoreReads(core: StoreCore): ReadMethods {
  const { dbPath, lanes, vectors, opened, read, batchSize } = core;
  return {
    schemaVersion: () => read(({ reader }) => readSchemaVersion(reader)),
    findDocumentBySha: (sha256) => read(({ reader }) => findDocument(reader, "sha256", sha256)),
    getDocument: (id) => read(({ reader }) => findDocument(reader, "id", id)),
    listDocuments: () => read(({ reader }) => listDocuments(reader)),
    checkLibrary: () => read(({ reader }) => checkLibraryRows(reader)),
    getSection: (id) => read(({ reader }) => getSection(reader, id)),
    getSections: (documentId) => read(({ reader }) => getSections(reader, documentId)),
    // The import's own read (every section's label, a slow one at scale), made
    // in the write lane on the writer's connection: the read lane is one connection taken in
    // turn, and searches during an import waited behind it.
    getDocumentOutlines: (documentIds) => lanes.write(() => documentOutlines(opened().writer, documentIds)),
    getSectionsByIds: (ids) => read(({ reader }) => sectionsByIds(reader, ids)),
    getChildSectionIds: (ids) => read(({ reader }) => childSectionIds(reader, ids)),
    getCrossReferences: (sectionIds) => read(({ reader }) => crossReferences(reader, sectionIds)),
    getDocumentReferences: (documentId) => read(({ reader }) => documentReferences(reader, documentId)),
    getReferenceIdsInto: (sectionIds) => read(({ reader }) => referenceIdsInto(reader, sectionIds)),
    getTermsByNormalized: (terms) => read(({ reader }) => termsByNormalized(reader, terms)),
    getTermsByIds: (ids) => read(({ reader }) => termsByIds(reader, ids)),
    getCrossDocumentRows: (maxRows) => read(({ reader }) => crossDocumentRows(reader, maxRows)),
    getTriplets: (documentId) => read(({ reader }) => tripletsOfDocument(reader, documentId)),
    getTripletsForSections: (ids) => read(({ reader }) => tripletsForSections(reader, ids)),
    getTripletsByIds: (ids) => read(({ reader }) => tripletsByIds(reader, ids)),
    getTripletsForEntityKeys: (keys, limit) => read(({ reader }) => tripletsForEntityKeys(reader, keys, limit)),
    stats: () => read(({ reader }) => stats(reader)),
    embeddingSpace: () => read(({ reader }) => readSpace(reader)),
    documentsMissingEmbeddings: () => read(async ({ reader }) => documentsMissingEmbeddings(reader, (await readSpace(reader))?.modelId ?? "")),
    getExtractionCache: (keys) => read(({ reader }) => readExtractionCache(reader, keys, batchSize)),
    getSectionVectors: (documentIds) =>
      read(async ({ reader }) => ((await tableNames(reader)).has(SECTION_VECTORS.table) ? sectionVectorsOfDocuments(reader, documentIds) : new Map())),
    getComparison: (id) => read(({ reader }) => readComparison(reader, id)),
    listComparisons: () => read(({ reader }) => listComparisonRecords(reader)),
    getComparisonEdges: (id) =>
      read(async ({ reader }) => {
        const comparison = await readComparison(reader, id);
        return comparison === null ? [] : readComparisonEdges(reader, comparison);
      }),
    getComparisonCache: (keys) => read(({ reader }) => readComparisonCache(reader, keys, batchSize)),
    graphSchema: () => liveSchemaOf(core),
    readOnlyQuery: (cypher, params, queryOptions) =>
      // On a connection of its own, but in the read lane: a query running for seconds would keep a
      // checkpoint from starting (lanes.ts).
      read(async (open) => {
        open.readOnlyConnection ??= createReadOnlyConnection(open.db, dbPath);
        return (await open.readOnlyConnection).run(cypher, params, queryOptions.timeoutMs);
      }),

    searchSectionsByVector: async (vector, k) => (await vectors.search(SECTION_VECTORS, vector, k)).map(({ id, score }) => ({ id, score })),
    searchTripletIdsByVector: async (vector, k) =>
      (await vectors.search(TRIPLET_VECTORS, vector, k)).map(({ id, sectionId, score }) => ({ id, sectionId, score })),
    sectionVectorsByIds: (ids, modelId) => vectors.sectionVectors(ids, modelId),
  };
}
