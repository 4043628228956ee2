// The question sets over the ten corpus PDFs that the fusion weights are fitted on beside ObliQA
// dev (bench:retrieval --fit): the labelled questions (test/corpus/answer-questions.json, one
// answering provision each) and the read part of the auditor dev set (gold pages in a gold PDF).
// ObliQA's questions were written from its passages and share their words; these ask in an
// auditor's words, so weights fitted on ObliQA alone favour word-for-word matches that plain
// questions never have.
//
// The auditor set's unread part (ids divisible by 4) is searched too, for totals only: it is
// returned apart and never enters a fit.
import { existsSync } from "node:fs";
import path from "node:path";
import { documentScope } from "../../core/answer/index.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import type { Embedder } from "../../core/model/embedder.ts";
import { libraryNames } from "../../core/model/document-names.ts";
import type { RankedSection, StageSwitches } from "../../core/model/retrieval-types.ts";
import { hybridSearch } from "../../core/retrieve/hybrid-search.ts";
import { createRetrievalCaches } from "../../core/retrieve/retrieval-caches.ts";
import { createLibraryStore } from "../../core/store/library-store.ts";
import { withReadCache } from "../../core/store/read-cache.ts";
import { baseLabel, loadAnswerQuestions } from "./answer-questions.ts";
import { isUnread, loadAuditorDev, type AuditorQuestion } from "./auditor-dev.ts";
import type { FitQuestion, FitSet } from "./fit-weights.ts";
import { openLabelledLibrary, pdfsIn } from "./labelled-library.ts";
import type { Qrels } from "./metrics.ts";

/** Candidates kept per question: the ranking's pool before it is cut to what is shown. */
const POOL = 150;

export interface PlainLanguageSets {
  labelled: FitSet;
  auditorRead: FitSet;
  /** Ours (test/corpus/plain-questions.jsonl), its read part; null when the file is absent. */
  plain: FitSet | null;
  /** For totals only: never passed to a fit. */
  auditorUnread: FitSet;
}

interface Asked {
  id: string;
  question: string;
  isGold: (r: RankedSection, file: string) => boolean;
}

export async function plainLanguageSets(options: {
  regulatoryDir: string;
  auditorFile: string;
  plainFile: string;
  modelRoot: string;
  embedder: Embedder;
  stages: StageSwitches;
  log: (line: string) => void;
}): Promise<PlainLanguageSets> {
  // Imported (or reused) through the engine as bench:answer does, then read through a store of its own.
  const library = await openLabelledLibrary({ pdfs: pdfsIn(options.regulatoryDir), modelRoot: options.modelRoot, log: options.log });
  await library.engine.close();
  const kuzu = createLibraryStore({ dbPath: path.join(library.dataDir, "graph.kuzu"), readOnly: true });
  await kuzu.open();
  try {
    const store = withReadCache(kuzu);
    const documents = await store.listDocuments();
    const names = libraryNames(documents).documents;
    const fileOf = new Map(documents.map((d) => [d.id, path.basename(d.file)]));
    const resources = createLanguageResources();
    const caches = createRetrievalCaches();
    const features = async (asked: readonly Asked[]): Promise<{ questions: FitQuestion[]; qrels: Qrels }> => {
      const questions: FitQuestion[] = [];
      const qrels: Qrels = new Map();
      for (const q of asked) {
        // Scoped as the search box scopes a query naming an instrument (usecases/search.ts).
        const scope = documentScope(q.question, names, resources).documentIds;
        const ranked = await hybridSearch(store, options.embedder, q.question, {
          k: POOL,
          stages: options.stages,
          caches,
          ...(scope.length > 0 ? { documentIds: scope } : {}),
        });
        questions.push({ qid: q.id, candidates: ranked.map((r) => ({ id: r.section.id, features: r.evidence.features })) });
        qrels.set(q.id, new Map(ranked.filter((r) => q.isGold(r, fileOf.get(r.document.id) ?? "")).map((r) => [r.section.id, 1])));
      }
      return { questions, qrels };
    };
    const labelledQuestions = await loadAnswerQuestions();
    const labelled = await features(
      labelledQuestions.map((q) => ({
        id: q.id,
        question: q.question,
        isGold: (r, file) => file === q.document && baseLabel(r.section.label) === q.provision.label,
      })),
    );
    const auditor = (await loadAuditorDev(options.auditorFile)).filter((q) => q.file !== null);
    const withGoldPages = (questions: readonly AuditorQuestion[]): Asked[] =>
      questions.map((q) => {
        const pages = q.gold.flatMap((g) => g.pages);
        return {
          id: q.id,
          question: q.question,
          isGold: (r, file) => file === q.file && pages.some((p) => p >= r.section.pageStart && p <= r.section.pageEnd),
        };
      });
    const read = await features(withGoldPages(auditor.filter((q) => !isUnread(q.id))));
    const unread = await features(withGoldPages(auditor.filter((q) => isUnread(q.id))));
    const plain = existsSync(options.plainFile)
      ? await features(withGoldPages((await loadAuditorDev(options.plainFile)).filter((q) => q.file !== null && !isUnread(q.id))))
      : null;
    const set = (name: string, data: { questions: FitQuestion[]; qrels: Qrels }, weight: number): FitSet => ({
      name,
      ...data,
      measure: "hit-rank",
      weight,
      floor: false,
    });
    return {
      labelled: set("labelled", labelled, 1),
      auditorRead: set("auditor dev (read)", read, 1),
      plain: plain === null ? null : set("plain-language (ours)", plain, 1),
      auditorUnread: set("auditor dev (unread)", unread, 0),
    };
  } finally {
    await kuzu.close();
  }
}
