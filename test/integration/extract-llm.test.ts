import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import kuzu from "kuzu";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { Embedder } from "../../core/model/embedder.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { extractionCacheKey } from "../../core/llm-extract/cache-key.ts";
import { cleanTriplets } from "../../core/llm-extract/clean-triplets.ts";
import { mergeSimilarEntities } from "../../core/llm-extract/entity-merge.ts";
import { locateEvidence } from "../../core/llm-extract/evidence-span.ts";
import { PROMPT_VERSION, type RawTriplet } from "../../core/llm-extract/extraction-prompt.ts";
import { predicateKey, predicateModality } from "../../core/llm-extract/predicate-cluster.ts";
import { chunkBySentence } from "../../core/llm-extract/section-chunks.ts";
import { trivialReason } from "../../core/llm-extract/trivial-triplet.ts";
import type { JobProgress } from "../../core/model/job.ts";
import { ClauseGraphError } from "../../core/model/errors.ts";
import type { LlmClient, LlmGenerateOptions } from "../../core/model/llm-client.ts";
import type { Section } from "../../core/model/section-types.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import type { WireEvent } from "../../core/contract/contract.ts";
import { createFakeEngine } from "../helpers/contract-fake-engine.ts";

// The LLM triplet tier at the seam: a scripted model answers fixed JSON per passage, so cleaning,
// merging, provenance, the cache and resumption are checked deterministically on a real Kuzu store.

const DOC_TEXT = `REGULATION ON SAMPLE MATTERS

Article 1
Definitions
For the purposes of this Regulation, 'competent authority' means the authority designated by each Member State. Information and communication technology (ICT) means digital services.

Article 2
Incident notification
Operators shall notify the competent authority of a major incident within 24 hours. The report is approved by the management body.

Article 3
Records
Operators must notify the competent authority of any change of ICT providers. Reports are approved by the management body.
`;

const t = (subject: string, predicate: string, object: string, evidence: string): RawTriplet => ({
  subject,
  subject_type: "actor",
  predicate,
  object,
  object_type: "object",
  evidence_span: evidence,
});

/** Fixed answers keyed by a phrase of the passage. */
const SCRIPT: Array<{ when: string; json: string }> = [
  {
    when: "Operators shall notify",
    json: JSON.stringify({
      triplets: [
        t("Operators", "shall notify", "the competent authority", "Operators shall notify the competent authority of a major incident"),
        t("The report", "is approved by", "management body", "The report is approved by the management body."),
        t("Operators", "shall pay", "fines", "Operators shall pay fines to the Commission"), // invented evidence
        t("it", "shall notify", "authority", "Operators shall notify the competent authority"), // unresolved pronoun
        t("Operators", "are", "operator", "Operators shall notify"), // subject is its object
      ],
    }),
  },
  {
    when: "Operators must notify",
    json: JSON.stringify({
      triplets: [
        t("operators", "must notify", "competent authorities", "Operators must  notify the Competent Authority of any change"),
        t("Reports", "are approved by", "the management body", "Reports are approved by the management body."),
        t("Operators", "change", "ICT providers", "any change of ICT providers"),
      ],
    }),
  },
  { when: "REGULATION ON SAMPLE MATTERS", json: '{"triplets": [' }, // cut off: malformed
];

interface ScriptedLlm extends LlmClient {
  calls: string[];
  /** Aborts this controller when the n-th call starts (1-based). */
  abortAt?: { call: number; controller: AbortController };
}

function scriptedLlm(modelId = "scripted-model"): ScriptedLlm {
  const llm: ScriptedLlm = {
    modelId,
    contextSize: 4096,
    calls: [],
    countTokens: (text) => Math.ceil(text.length / 4),
    async generate(options: LlmGenerateOptions) {
      const passage = options.prompt.split("Passage:\n")[1] ?? "";
      llm.calls.push(passage);
      expect(options.jsonSchema).toBeDefined();
      if (llm.abortAt && llm.calls.length === llm.abortAt.call) llm.abortAt.controller.abort();
      if (options.signal?.aborted) throw new ClauseGraphError("CANCELLED", "Generation cancelled.");
      const text = SCRIPT.find((s) => passage.includes(s.when))?.json ?? '{"triplets":[]}';
      return { text, promptTokens: 10, completionTokens: 10, firstTokenMs: 1, totalMs: 1, stopReason: "end" };
    },
    async close() {},
  };
  return llm;
}

function section(id: string, text: string): Section {
  return {
    id: `doc:${id}`,
    documentId: "doc",
    ordinal: 0,
    kind: "article",
    label: id,
    heading: "",
    path: [],
    parentId: null,
    level: 0,
    text,
    pageStart: 1,
    pageEnd: 1,
    spans: [],
  };
}

describe("LLM extraction: pure cleaning steps", () => {
  it("finds evidence with normalized case, whitespace and quotes, mapped back to the original text", () => {
    const text = "Operators  shall\nnotify the ‘competent authority’ without delay.";
    const range = locateEvidence(text, "operators shall notify the 'Competent Authority'");
    expect(range).not.toBeNull();
    expect(text.slice(range?.start, range?.end)).toBe("Operators  shall\nnotify the ‘competent authority");
    expect(locateEvidence(text, "Operators shall pay fines")).toBeNull();
    expect(locateEvidence(text, "the")).toBeNull();
  });

  it("clusters predicates by auxiliary, modal and agreement, and never by content verb", () => {
    expect(predicateKey("is approved")).toBe(predicateKey("are approved"));
    expect(predicateKey("must notify")).toBe(predicateKey("shall notify"));
    expect(predicateKey("notifies")).toBe(predicateKey("notify"));
    expect(predicateKey("Is required to report")).toBe("shall report");
    expect(predicateKey("may request")).not.toBe(predicateKey("shall request"));
    expect(predicateModality(predicateKey("must not disclose"))).toBe("must not");
    expect(predicateModality(predicateKey("may request"))).toBe("may");
    expect(predicateModality(predicateKey("is approved by"))).toBe("fact");
  });

  it("flags empty, pronoun-only and self-referential triplets", () => {
    expect(trivialReason({ subjectKey: "", predicateKey: "x", objectKey: "y", subject: "", object: "y" })).toBe("empty");
    expect(trivialReason({ subjectKey: "they", predicateKey: "shall notify", objectKey: "authority", subject: "They", object: "authority" })).toBe("pronoun");
    expect(trivialReason({ subjectKey: "operator", predicateKey: "is", objectKey: "operator", subject: "Operators", object: "operator" })).toBe("self");
    expect(
      trivialReason({ subjectKey: "operator", predicateKey: "shall notify", objectKey: "authority", subject: "Operators", object: "the authority" }),
    ).toBeNull();
  });

  it("splits long sections between sentences to fit the token budget", () => {
    const text = "First sentence is here. Second sentence is here. Third one follows. Fourth closes it.";
    const chunks = chunkBySentence(text, 12, (s) => Math.ceil(s.length / 4));
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(Math.ceil(c.length / 4)).toBeLessThanOrEqual(12);
    expect(chunks.join(" ")).toBe(text);
    expect(chunkBySentence(text, 1000, (s) => s.length)).toEqual([text]);
  });

  it("keys the cache by content, model and prompt version", () => {
    const s = section("a", "Operators shall notify.");
    const key = extractionCacheKey({ modelId: "m", section: s, context: "ctx" });
    const moved: Section = { ...s, id: "other:id", documentId: "other" };
    expect(extractionCacheKey({ modelId: "m", section: moved, context: "ctx" })).toBe(key);
    expect(extractionCacheKey({ modelId: "m2", section: s, context: "ctx" })).not.toBe(key);
    expect(extractionCacheKey({ modelId: "m", section: s, context: "ctx", promptVersion: `${PROMPT_VERSION}-next` })).not.toBe(key);
    expect(extractionCacheKey({ modelId: "m", section: { ...s, text: "Operators shall notify!" }, context: "ctx" })).not.toBe(key);
    expect(extractionCacheKey({ modelId: "m", section: s, context: "other terms" })).not.toBe(key);
  });

  it("merges entities (plural, articles, acronyms, defined terms) and keeps provenance to every section", async () => {
    const a = section("a", "Operators shall notify the competent authority of incidents. ICT providers are listed.");
    const b = section("b", "Each operator must notify the competent authorities promptly.");
    const cleaned = await cleanTriplets(
      [
        {
          section: a,
          triplets: [
            t("Operators", "shall notify", "the competent authority", "Operators shall notify the competent authority"),
            t("ICT providers", "are listed", "register", "ICT providers are listed"),
          ],
        },
        { section: b, triplets: [t("operator", "must notify", "competent authorities", "operator must notify the competent authorities")] },
      ],
      {
        documentId: "doc",
        language: "en",
        acronyms: new Map([["ICT", "information and communication technology"]]),
        termsByKey: new Map([["competent authority", "competent authority"]]),
        embedder: null,
      },
    );
    expect(cleaned.triplets).toHaveLength(2);
    const notify = cleaned.triplets.find((x) => x.predicate === "shall notify");
    expect(notify).toMatchObject({ subject: "operator", object: "competent authority", sectionId: "doc:a", modality: "must", source: "llm" });
    expect(cleaned.statedIn.filter((s) => s.tripletId === notify?.id).map((s) => s.sectionId)).toEqual(["doc:a", "doc:b"]);
    const spanB = cleaned.statedIn.find((s) => s.tripletId === notify?.id && s.sectionId === "doc:b");
    expect(b.text.slice(spanB?.start, spanB?.end)).toBe("operator must notify the competent authorities");
    expect(cleaned.entities.find((e) => e.key === "competent authority")?.type).toBe("term");
    expect(cleaned.triplets.find((x) => x.predicate === "is listed")?.subject).toBe("information and communication technology provider");
    expect(cleaned.dropped).toEqual({ evidence: 0, trivial: 0, duplicate: 1 });
  });

  it("merges by embedding only above the threshold and only with the same head word", async () => {
    // A toy embedder: names map to fixed vectors.
    const vectors: Record<string, number[]> = {
      "supervisory authority": [1, 0, 0],
      "supervisory authorities body": [0, 1, 0],
      "national supervisory authority": [0.99, 0.1, 0],
      "data processor": [0, 0, 1],
      "data controller": [0.05, 0, 1],
    };
    const embedder: Embedder = {
      id: "toy",
      dimensions: 3,
      embedQueries: async (texts) => texts.map((x) => Float32Array.from(vectors[x] ?? [0, 0, 0])),
      embedDocuments: async (texts) => texts.map((x) => Float32Array.from(vectors[x] ?? [0, 0, 0])),
      close: async () => {},
    };
    const merged = await mergeSimilarEntities(
      Object.keys(vectors).map((name, i) => ({ key: name, name, mentions: name === "supervisory authority" ? 5 : 1 + (i % 2), isTerm: false })),
      embedder,
    );
    expect(merged.get("national supervisory authority")).toBe("supervisory authority");
    expect(merged.get("data controller")).toBe("data controller"); // similar vectors, different head word
    expect(merged.get("data processor")).toBe("data processor");
    expect(merged.get("supervisory authorities body")).toBe("supervisory authorities body");
  });
});

describe("LLM extraction job on a real Kuzu store", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-extract-"));
    file = path.join(dir, "regulation.txt");
    await writeFile(file, DOC_TEXT);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function freshEngine(name: string, llm: LlmClient | null): Promise<{ engine: Engine; documentId: string; dataDir: string }> {
    const dataDir = path.join(dir, name);
    const engine = await createEngine({ dataDir, embedder: null, llm });
    const [result] = await engine.importFiles([file]);
    return { engine, documentId: result?.documentId ?? "", dataDir };
  }

  it("refuses to run without a model", async () => {
    const { engine } = await freshEngine("no-model", null);
    try {
      await expect(engine.extractTriplets()).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
    } finally {
      await engine.close();
    }
  });

  it("extracts, cleans and stores LLM triplets beside the rule ones; a rerun is served from the cache", async () => {
    const llm = scriptedLlm();
    const { engine, documentId, dataDir } = await freshEngine("full", llm);
    const rulesBefore = (await engine.search("operators notify", { k: 3 })).triplets.filter((x) => x.source === "rule").length;
    const statsBefore = await engine.stats();
    const events: JobProgress[] = [];
    const summary = await engine.extractTriplets({ onProgress: (e) => events.push(e) });
    expect(llm.calls).toHaveLength(4);
    expect(summary).toMatchObject({ sections: 4, extracted: 4, cached: 0, failed: 0, triplets: 3, modelId: "scripted-model", promptVersion: PROMPT_VERSION });
    expect(summary.documents[0]).toMatchObject({ documentId, malformedChunks: 1, dropped: { evidence: 1, trivial: 2, duplicate: 2 } });
    expect(events.some((e) => e.step === "extracting" && e.total === 4)).toBe(true);
    expect(events.at(-1)).toMatchObject({ status: "done", subject: "regulation.txt" });

    const statsAfter = await engine.stats();
    expect(statsAfter.triplets).toBe(statsBefore.triplets + 3);
    const rulesAfter = (await engine.search("operators notify", { k: 3 })).triplets.filter((x) => x.source === "rule").length;
    expect(rulesAfter).toBe(rulesBefore);

    const again = await engine.extractTriplets({ documentIds: [documentId] });
    expect(llm.calls).toHaveLength(4); // nothing sent to the model
    expect(again).toMatchObject({ extracted: 0, cached: 4, triplets: 3 });
    expect((await engine.stats()).triplets).toBe(statsAfter.triplets);
    await engine.close();

    // Provenance: the merged notify triplet is stated in Articles 2 and 3, with a span in each.
    const db = new kuzu.Database(databasePath(dataDir), 64 * 1024 * 1024, true, true);
    const conn = new kuzu.Connection(db, 1);
    const result = await conn.query(
      "MATCH (t:Triplet)-[r:STATED_IN]->(s:Section) WHERE t.source = 'llm' AND t.predicate = 'shall notify' RETURN s.id AS section, r.spanStart AS start ORDER BY section",
    );
    const rows = (await (Array.isArray(result) ? result[0] : result)?.getAll()) ?? [];
    await conn.close();
    await db.close();
    expect(rows.map((r) => String(r.section))).toEqual([`${documentId}:article-2`, `${documentId}:article-3`]);
    expect(rows.every((r) => Number(r.start) === 0)).toBe(true);
  });

  it("redoes everything for another model, and deleting the document removes its LLM triplets", async () => {
    const { engine, documentId } = await freshEngine("other-model", scriptedLlm());
    try {
      await engine.extractTriplets();
      await engine.close();
      const other = scriptedLlm("another-model");
      const reopened = await createEngine({ dataDir: path.join(dir, "other-model"), embedder: null, llm: other });
      try {
        const summary = await reopened.extractTriplets();
        expect(summary).toMatchObject({ extracted: 4, cached: 0, triplets: 3 });
        expect(other.calls).toHaveLength(4);
        await reopened.deleteDocument(documentId);
        expect(await reopened.stats()).toMatchObject({ triplets: 0, entities: 0 });
        await expect(reopened.extractTriplets({ documentIds: [documentId] })).rejects.toMatchObject({ code: "NOT_FOUND" });
      } finally {
        await reopened.close();
      }
    } finally {
      await engine.close();
    }
  });

  it("keeps the previous LLM triplets whole when storing new ones fails mid-transaction", async () => {
    const dataDir = path.join(dir, "fault");
    let failAt: string | null = null;
    const store = createKuzuStore({
      dbPath: databasePath(dataDir),
      faultInjector: (stage) => {
        if (stage === failAt) throw new Error(`injected fault at ${stage}`);
      },
    });
    const llm = scriptedLlm();
    const engine = await createEngine({ dataDir, store, embedder: null, llm });
    try {
      const [imported] = await engine.importFiles([file]);
      const documentId = imported?.documentId ?? "";
      await engine.extractTriplets();
      const before = await engine.stats();
      const triplets = await engine.search("operators notify competent authority", { k: 5 });
      for (const stage of ["llm:deleted", "llm:triplets", "llm:links"]) {
        failAt = stage;
        await expect(engine.extractTriplets({ documentIds: [documentId] })).rejects.toThrow(/injected fault/);
        expect(await engine.stats()).toEqual(before);
      }
      failAt = null;
      expect((await engine.search("operators notify competent authority", { k: 5 })).triplets).toEqual(triplets.triplets);
      expect(llm.calls).toHaveLength(4); // every retry came from the cache
    } finally {
      await engine.close();
    }
  });

  it("never holds the write queue while the model works: searches and imports go on", async () => {
    const llm = scriptedLlm();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const generate = llm.generate.bind(llm);
    let started: () => void = () => {};
    const firstCall = new Promise<void>((resolve) => {
      started = resolve;
    });
    llm.generate = async (options) => {
      started();
      await gate;
      return generate(options);
    };
    const { engine } = await freshEngine("busy", llm);
    try {
      const job = engine.extractTriplets();
      await firstCall;
      const other = path.join(dir, "other.txt");
      await writeFile(other, "Guidance note\n\nThe archive keeps minutes of meetings for ten years.\n");
      const [imported] = await engine.importFiles([other]);
      expect(imported?.status).toBe("ok");
      expect((await engine.search("minutes of meetings", { k: 1 })).results[0]?.documentId).toBe(imported?.documentId);
      release();
      expect((await job).triplets).toBe(3);
    } finally {
      release();
      await engine.close();
    }
  });

  it("embeds LLM triplets with the engine's embedder and replaces their vectors on a rerun", async () => {
    // A toy embedder: each word adds to one of 8 dimensions.
    const embed = (text: string): Float32Array => {
      const v = new Float32Array(8);
      for (const w of text
        .toLowerCase()
        .split(/\W+/)
        .filter((x) => x !== "")) {
        const i = [...w].reduce((n, c) => n + c.charCodeAt(0), 0) % 8;
        v[i] = (v[i] ?? 0) + 1;
      }
      return v;
    };
    const embedder: Embedder = {
      id: "toy-8",
      dimensions: 8,
      embedQueries: async (x) => x.map(embed),
      embedDocuments: async (x) => x.map(embed),
      close: async () => {},
    };
    const dataDir = path.join(dir, "vectors");
    const countLlmVectors = async (): Promise<number> => {
      const db = new kuzu.Database(databasePath(dataDir), 64 * 1024 * 1024, true, true);
      const conn = new kuzu.Connection(db, 1);
      const result = await conn.query("MATCH (v:TripletEmbedding) WHERE v.id CONTAINS ':llm:' RETURN count(v) AS n");
      const rows = (await (Array.isArray(result) ? result[0] : result)?.getAll()) ?? [];
      await conn.close();
      await db.close();
      return Number(rows[0]?.n ?? -1);
    };
    for (const run of [1, 2]) {
      const engine = await createEngine({ dataDir, embedder, llm: scriptedLlm() });
      try {
        if (run === 1) await engine.importFiles([file]);
        expect(await engine.extractTriplets()).toMatchObject({ triplets: 3, extracted: run === 1 ? 4 : 0 });
        const { triplets } = await engine.search("operators notify the competent authority", { k: 3 });
        expect(triplets.some((x) => x.source === "llm" && x.predicate === "shall notify")).toBe(true);
      } finally {
        await engine.close();
      }
      expect(await countLlmVectors()).toBe(3);
    }
  });

  it("cancels mid-job, then resumes without redoing finished sections and ends like an uninterrupted run", async () => {
    const baseline = await freshEngine("baseline", scriptedLlm());
    await baseline.engine.extractTriplets();
    const expected = await baseline.engine.stats();
    await baseline.engine.close();

    const llm = scriptedLlm();
    const { engine } = await freshEngine("resume", llm);
    try {
      const statsBefore = await engine.stats();
      const controller = new AbortController();
      llm.abortAt = { call: 3, controller };
      const events: JobProgress[] = [];
      await expect(engine.extractTriplets({ signal: controller.signal, onProgress: (e) => events.push(e) })).rejects.toMatchObject({ code: "CANCELLED" });
      expect(events.at(-1)?.status).toBe("cancelled");
      expect(await engine.stats()).toEqual(statsBefore); // nothing half-written
      delete llm.abortAt;
      llm.calls.length = 0;
      const resumed = await engine.extractTriplets();
      expect(llm.calls).toHaveLength(2); // sections 3 and 4 only
      expect(resumed).toMatchObject({ extracted: 2, cached: 2, triplets: 3 });
      expect(await engine.stats()).toEqual(expected);
    } finally {
      await engine.close();
    }
  });
});

describe("triplets.extract over the contract", () => {
  it("passes document ids, streams progress and cancels by the caller's or the progress job id", async () => {
    const engine = createFakeEngine();
    const events: WireEvent[] = [];
    const dispatcher = createDispatcher({ engine, emit: (e) => events.push(e) });
    let seenSignal: AbortSignal | undefined;
    engine.extractTriplets = async (options = {}) => {
      engine.calls.push({ method: "extractTriplets", args: [options.documentIds] });
      seenSignal = options.signal;
      options.onProgress?.({ jobId: "doc-job", status: "running", step: "extracting", current: 0, total: 2, subject: "a.pdf" });
      // Cancelled through jobs.cancel while running.
      expect(await dispatcher.dispatch("jobs.cancel", { jobId: "doc-job" })).toEqual({ ok: true, value: { cancelled: true } });
      throw new ClauseGraphError("CANCELLED", "triplet extraction cancelled by the user");
    };
    const result = await dispatcher.dispatch("triplets.extract", { documentIds: ["abc"], jobId: "mine" });
    expect(result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(seenSignal?.aborted).toBe(true);
    expect(engine.calls).toEqual([{ method: "extractTriplets", args: [["abc"]] }]);
    expect(events).toEqual([{ event: "job.progress", payload: expect.objectContaining({ jobId: "doc-job", step: "extracting" }) }]);
    // Finished jobs are forgotten.
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "mine" })).toEqual({ ok: true, value: { cancelled: false } });
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "doc-job" })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it("returns the summary, validated by the contract's schema", async () => {
    const engine = createFakeEngine();
    const dispatcher = createDispatcher({ engine, emit: () => {} });
    const result = await dispatcher.dispatch("triplets.extract", {});
    expect(result).toMatchObject({ ok: true, value: { triplets: 0, documents: [] } });
  });
});
