import type { AnswerLogRecord } from "../../core/model/answer-log-schema.ts";
import type { ConversationSummary } from "../../core/model/conversation-schemas.ts";
import type { ComparisonSummary } from "../../core/model/compare-schemas.ts";
import type { Engine, ImportOptions, ImportResult } from "../../core/model/engine-types.ts";
import { ClauseGraphError } from "../../core/model/errors.ts";
import type { ModelEntry, ModelsState } from "../../core/model/llm-model-schemas.ts";
import type { DocumentRecord } from "../../core/model/store-records.ts";
import type { Section } from "../../core/model/section-types.ts";

// An in-memory Engine that records every call, so contract tests can see exactly what reached it.

export interface Call {
  method: string;
  args: unknown[];
}

export const DOC: DocumentRecord = {
  id: "0123456789abcdef",
  sha256: "0123456789abcdef".padEnd(64, "0"),
  file: "/tmp/gdpr.pdf",
  fileName: "gdpr.pdf",
  title: "GDPR",
  format: "pdf",
  language: "en",
  pages: 3,
  bytes: 1234,
  sections: 1,
  importedAt: "2025-01-01T00:00:00.000Z",
};

export const SECTION: Section = {
  id: `${DOC.id}:article-5`,
  documentId: DOC.id,
  ordinal: 0,
  kind: "article",
  label: "Article 5",
  heading: "Principles relating to processing of personal data",
  path: ["Chapter II", "Article 5"],
  parentId: null,
  level: 1,
  text: "Personal data shall be processed lawfully.",
  pageStart: 2,
  pageEnd: 3,
  spans: [{ start: 0, end: 8, page: 2, box: { x: 1, y: 2, width: 3, height: 4 } }],
};

export const COMPARISON: ComparisonSummary = {
  id: `${DOC.id}~library`,
  documentA: { id: DOC.id, fileName: DOC.fileName, title: DOC.title },
  documentB: null,
  libraryDocuments: [],
  k: 3,
  embeddingModel: "glove-static-100d",
  scorerVersion: "crosswalk-1",
  llmModel: "",
  status: "complete",
  stale: null,
  sections: 1,
  pairsExamined: 1,
  matchThreshold: 0.2,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export interface FakeEngine extends Engine {
  calls: Call[];
  /** Replaces importFiles' behaviour for one test. */
  importImpl?: (files: string[], options: ImportOptions) => Promise<ImportResult[]>;
  /** Awaited by every search before it answers (a slow engine). */
  searchDelay?: () => Promise<void>;
  /** Makes every method throw this. */
  failWith?: unknown;
}

export const MODEL: ModelEntry = {
  id: "qwen2.5-1.5b-instruct-q4_k_m",
  name: "Qwen2.5 1.5B Instruct",
  origin: "manifest",
  present: true,
  sizeBytes: 1_000_000,
  parameters: "1.5B",
  quantization: "Q4_K_M",
  contextLength: 32768,
  license: "Apache-2.0",
  languages: ["en"],
  verified: true,
  active: false,
};

export function modelsState(activeId: string | null): ModelsState {
  return {
    modelsDir: "/tmp/fake/models",
    active: {
      modelId: activeId,
      status: activeId === null ? "none" : "ready",
      mode: activeId === null ? "extractive" : "llm",
      threads: activeId === null ? null : 2,
      contextSize: activeId === null ? null : 2048,
      error: null,
      external: false,
    },
    models: [{ ...MODEL, active: MODEL.id === activeId }],
    limits: { maxTokens: 512, maxSeconds: 120 },
  };
}

export const LOG_RECORD: AnswerLogRecord = {
  version: 1,
  id: "6f1c2f4e-0000-4000-8000-000000000000",
  askedAt: "2025-01-01T00:00:00.000Z",
  question: "who must notify a breach?",
  mode: "extractive",
  evidenceSectionIds: [SECTION.id],
  citedSectionIds: [SECTION.id],
  citations: [{ key: "S1", sectionId: SECTION.id, label: "GDPR Art. 5, p. 2", pageStart: 2, pageEnd: 2 }],
  model: null,
  timings: { retrieveMs: 1, promptTokens: 0, firstTokenMs: null, totalMs: 2 },
  answer: "Personal data shall be processed lawfully [S1].",
  analysis: null,
  unsupportedSentences: 0,
  refused: false,
};

export const CONVERSATION: ConversationSummary = {
  id: "0f6a1c2e-0000-4000-8000-000000000001",
  title: "who must notify a breach?",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:01.000Z",
  turnCount: 1,
};

export function okImport(file: string): ImportResult {
  return { file, documentId: DOC.id, sha256: DOC.sha256, title: DOC.title, pages: 3, sections: 1, status: "ok", warnings: [] };
}

export function createFakeEngine(): FakeEngine {
  const engine: FakeEngine = {
    dataDir: "/tmp/fake",
    calls: [],
    async importFiles(files, options = {}) {
      record("importFiles", files, options);
      if (engine.importImpl) return engine.importImpl(files, options);
      return files.map(okImport);
    },
    async search(query, options) {
      record("search", query, options);
      await engine.searchDelay?.();
      const results = [
        {
          sectionId: SECTION.id,
          documentId: DOC.id,
          file: DOC.file,
          label: SECTION.label,
          heading: SECTION.heading,
          path: SECTION.path,
          pageStart: 2,
          pageEnd: 3,
          score: 1.5,
          text: SECTION.text,
          foundBy: ["bm25" as const],
        },
      ];
      return { query, results, triplets: [], subgraph: { nodes: [], edges: [] }, timings: { retrieveMs: 1, totalMs: 1 } };
    },
    async listDocuments() {
      record("listDocuments");
      return [DOC];
    },
    async getSection(id) {
      record("getSection", id);
      return id === SECTION.id ? SECTION : null;
    },
    async getSections(documentId) {
      record("getSections", documentId);
      return documentId === DOC.id ? [SECTION] : [];
    },
    async setDocumentAliases(idOrFile, aliases) {
      record("setDocumentAliases", idOrFile, aliases);
      return { ...DOC, userAliases: aliases };
    },
    async deleteDocument(idOrFile) {
      record("deleteDocument", idOrFile);
      return { deleted: true, documentId: DOC.id, file: DOC.file };
    },
    async ask(question, options) {
      record("ask", question, options?.k, ...(options?.conversationId === undefined ? [] : [options.conversationId]));
      options?.onToken?.("Answer");
      return {
        answer: "The documents provided do not answer this.",
        mode: "extractive" as const,
        citations: [],
        sentences: [],
        triplets: [],
        subgraph: { nodes: [], edges: [] },
        timings: { retrieveMs: 1, promptTokens: 0, firstTokenMs: null, totalMs: 1 },
      };
    },
    async idle() {
      record("idle");
    },
    async ocrPreference() {
      record("ocrPreference");
      return { mode: "ask", language: "auto" };
    },
    async setOcrPreference(preference) {
      record("setOcrPreference", preference);
      return preference;
    },
    async listModels() {
      record("listModels");
      return modelsState(null);
    },
    async selectModel(modelId, settings) {
      record("selectModel", modelId, settings);
      return modelsState(modelId);
    },
    async setAnswerLimits(limits) {
      record("setAnswerLimits", limits);
      return { ...modelsState(null), limits: { maxTokens: 512, maxSeconds: 120, ...limits } };
    },
    async importModel(file) {
      record("importModel", file);
      return { status: "imported" as const, model: MODEL };
    },
    async answerLog(options) {
      record("answerLog", options);
      return [LOG_RECORD];
    },
    async createConversation() {
      record("createConversation");
      return { ...CONVERSATION, turnCount: 0, title: "New conversation" };
    },
    async listConversations(options) {
      record("listConversations", options);
      return [CONVERSATION];
    },
    async getConversation(id) {
      record("getConversation", id);
      return {
        ...CONVERSATION,
        id,
        turns: [{ at: LOG_RECORD.askedAt, question: LOG_RECORD.question, askedAs: null, followUpReason: null, logId: LOG_RECORD.id, result: null, notes: [] }],
      };
    },
    async deleteConversation(id) {
      record("deleteConversation", id);
      return { deleted: id === CONVERSATION.id };
    },
    async exportAnswer(logId, format) {
      record("exportAnswer", logId, format);
      return { fileName: `answer.${format}`, mimeType: "text/markdown", text: `# ${LOG_RECORD.question}\n` };
    },
    async exportConversation(id, format) {
      record("exportConversation", id, format);
      return { fileName: `conversation.${format}`, mimeType: "text/markdown", text: `# ${CONVERSATION.title}\n` };
    },
    async graphNeighbors(nodeId) {
      record("graphNeighbors", nodeId);
      return { nodes: [{ id: nodeId, kind: "section" as const, label: SECTION.label }], edges: [] };
    },
    async entityFacts(nodeId) {
      record("entityFacts", nodeId);
      return {
        name: "controller",
        sections: [
          {
            sectionId: SECTION.id,
            documentId: DOC.id,
            label: `${SECTION.label}, p. 1`,
            page: 1,
            role: "subject" as const,
            fact: "controller — shall notify — breach",
            span: { start: 0, end: 10 },
            facts: 1,
          },
        ],
        truncated: false,
      };
    },
    async getDocumentSource(documentId) {
      record("getDocumentSource", documentId);
      return { documentId, fileName: DOC.fileName, format: DOC.format, bytes: new Uint8Array([37, 80, 68, 70]) };
    },
    async resources() {
      record("resources");
      return {
        readCacheEntries: 0,
        stemCacheEntries: 0,
        contextCacheEntries: 0,
        sectionVectorCacheEntries: 0,
        vectorMirrorRows: 0,
        searchSegments: 0,
        searchIndexMb: 0,
        kuzuPoolMb: 0,
        pendingWrites: 0,
      };
    },
    async stats() {
      record("stats");
      return {
        documents: 1,
        sections: 1,
        crossReferences: 0,
        resolvedCrossReferences: 0,
        terms: 0,
        triplets: 0,
        entities: 0,
        embeddedSections: 0,
        embeddingModel: "",
      };
    },
    async checkLibrary() {
      record("checkLibrary");
      return { documents: 1, damaged: [] };
    },
    async repairLibrary() {
      record("repairLibrary");
      return { rebuilt: false, reimported: [], missing: [], backup: null, health: { documents: 1, damaged: [] } };
    },
    async extractTriplets(options = {}) {
      record("extractTriplets", { documentIds: options.documentIds });
      options.onProgress?.({ jobId: "extract-job-1", status: "running", step: "extracting", current: 0, total: 1, subject: DOC.fileName });
      return { modelId: MODEL.id, promptVersion: "test", documents: [], sections: 0, extracted: 0, cached: 0, failed: 0, triplets: 0, totalMs: 0 };
    },
    async compareDocuments(documentA, documentB, options = {}) {
      record("compareDocuments", documentA, documentB, { k: options.k, verdicts: options.verdicts, jobId: options.jobId });
      options.onProgress?.({ jobId: options.jobId ?? "compare-job-1", status: "running", step: "scoring", current: 0, total: 1, subject: DOC.fileName });
      if (options.signal?.aborted) throw new ClauseGraphError("CANCELLED", "comparison cancelled by the user");
      return {
        comparison: COMPARISON,
        pairsExamined: 1,
        rowsWritten: 1,
        rowsKept: 0,
        verdicts: { pairs: 0, cached: 0, modelCalls: 0, failed: 0 },
        seconds: 0.1,
      };
    },
    async listComparisons() {
      record("listComparisons");
      return [COMPARISON];
    },
    async getComparison(id) {
      record("getComparison", id);
      return { comparison: { ...COMPARISON, id }, rows: [] };
    },
    async getComparisonPair(id, aSectionId, bSectionId) {
      record("getComparisonPair", id, aSectionId, bSectionId);
      throw new ClauseGraphError("NOT_FOUND", `${aSectionId} and ${bSectionId} are not a pair of comparison ${id}`);
    },
    async exportComparison(id, format) {
      record("exportComparison", id, format);
      return { fileName: `crosswalk.${format}`, mimeType: "text/csv", text: "A document\r\n" };
    },
    async deleteComparison(id) {
      record("deleteComparison", id);
      return { deleted: id === COMPARISON.id };
    },
    async close() {
      record("close");
    },
  };
  function record(method: string, ...args: unknown[]): void {
    engine.calls.push({ method, args });
    if (engine.failWith !== undefined) throw engine.failWith;
  }
  return engine;
}
