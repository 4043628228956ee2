import type { Embedder } from "../../core/model/embedder.ts";
import type { RetrievalStore } from "../../core/store/retrieval-store.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { CrossReferenceRecord, TermRecord, TripletRecord } from "../../core/model/graph-records.ts";
import type { Section } from "../../core/model/section-types.ts";

// A hand-made RetrievalStore: each search returns fixed ids, so a test can tell which stage
// contributed what, and counts calls so a test can check that a switched-off stage never ran.

export const DOC: DocumentRecord = {
  id: "doc1",
  sha256: "0".repeat(64),
  file: "/tmp/doc1.pdf",
  fileName: "doc1.pdf",
  title: "Test rules",
  format: "pdf",
  language: "en",
  pages: 1,
  bytes: 1,
  sections: 0,
  importedAt: new Date(0).toISOString(),
};

export function section(id: string, text: string, extra: Partial<Section> = {}): Section {
  return {
    id,
    documentId: DOC.id,
    ordinal: 0,
    kind: "rule",
    label: id,
    heading: "",
    path: [id],
    parentId: null,
    level: 0,
    text,
    pageStart: 1,
    pageEnd: 1,
    spans: [],
    ...extra,
  };
}

export function triplet(id: string, sectionId: string, subject: string, object: string): TripletRecord {
  return {
    id,
    documentId: DOC.id,
    sectionId,
    subjectId: subject.toLowerCase(),
    subject,
    predicate: "must notify",
    objectId: object.toLowerCase(),
    object,
    modality: "must",
    deadline: null,
    source: "rule",
    confidence: 0.9,
    start: 0,
    end: 10,
    evidence: `${subject} must notify ${object}`,
  };
}

export interface FakeStoreSetup {
  sections: Section[];
  bm25: string[];
  vectors?: string[];
  triplets?: TripletRecord[];
  tripletHits?: string[];
  references?: CrossReferenceRecord[];
  terms?: TermRecord[];
}

export interface FakeStore extends RetrievalStore {
  calls: Record<string, number>;
}

export function fakeStore(setup: FakeStoreSetup): FakeStore {
  const byId = new Map(setup.sections.map((s) => [s.id, s]));
  const calls: Record<string, number> = {};
  const count = (name: string): void => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const triplets = setup.triplets ?? [];
  return {
    calls,
    async searchSections(_query, k) {
      count("searchSections");
      return setup.bm25.slice(0, k).map((id, i) => ({ section: byId.get(id) ?? section(id, ""), document: DOC, score: 10 - i }));
    },
    async searchSectionsByVector(_vector, k) {
      count("searchSectionsByVector");
      return (setup.vectors ?? []).slice(0, k).map((id, i) => ({ id, score: 0.9 - i * 0.1 }));
    },
    async searchTripletIdsByVector(_vector, k) {
      count("searchTripletIdsByVector");
      return (setup.tripletHits ?? [])
        .slice(0, k)
        .flatMap((id, i) => triplets.filter((t) => t.id === id).map((t) => ({ id: t.id, sectionId: t.sectionId, score: 0.95 - i * 0.1 })));
    },
    async getSectionsByIds(ids) {
      count("getSectionsByIds");
      return ids.flatMap((id) => {
        const s = byId.get(id);
        return s ? [{ section: s, document: DOC }] : [];
      });
    },
    async getChildSectionIds(ids) {
      count("getChildSectionIds");
      return new Map(ids.map((id) => [id, setup.sections.filter((s) => s.parentId === id).map((s) => s.id)]));
    },
    async getCrossReferences(ids) {
      count("getCrossReferences");
      return (setup.references ?? []).filter((r) => ids.includes(r.fromSectionId) || (r.toSectionId !== null && ids.includes(r.toSectionId)));
    },
    async getTermsByNormalized(normalized) {
      count("getTermsByNormalized");
      return (setup.terms ?? []).filter((t) => normalized.includes(t.normalizedTerm));
    },
    async getTripletsForSections(ids) {
      count("getTripletsForSections");
      return triplets.filter((t) => ids.includes(t.sectionId));
    },
  };
}

export function fakeEmbedder(): Embedder & { calls: number } {
  const e = {
    id: "fake",
    dimensions: 2,
    calls: 0,
    async embedQueries(texts: string[]) {
      e.calls++;
      return texts.map(() => Float32Array.from([1, 0]));
    },
    async embedDocuments(texts: string[]) {
      return texts.map(() => Float32Array.from([1, 0]));
    },
    async close() {},
  };
  return e;
}

export function reference(id: string, from: string, to: string): CrossReferenceRecord {
  return {
    id,
    documentId: DOC.id,
    fromSectionId: from,
    toSectionId: to,
    toDocumentId: DOC.id,
    raw: `Rule ${to}`,
    label: `Rule ${to}`,
    pinpoint: null,
    instrument: null,
    start: 0,
    end: 5,
    resolved: true,
  };
}
