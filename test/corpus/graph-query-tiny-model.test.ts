import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { askResultSchema } from "../../core/model/answer-schemas.ts";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { GateRefusal, gateCypher } from "../../core/graph-query/cypher-gate.ts";
import { cypherGrammar } from "../../core/graph-query/cypher-grammar.ts";
import { modelCypher } from "../../core/graph-query/llm-cypher.ts";
import { querySchema } from "../../core/graph-query/query-schema.ts";
import type { LlmClient } from "../../core/model/llm-client.ts";
import { loadLlm } from "../../core/llm/load-llm.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { HOSTILE_GRAPH_QUESTIONS, libraryDigest, writeIncidentRegulation } from "../helpers/graph-fixture.ts";
import { countingLlm, describeTinyLlm, HAS_TINY_LLM, TINY_LLM_PATH } from "../helpers/tiny-llm.ts";

// The model-written Cypher path on the real node-llama-cpp runtime: stories260K knows nothing, so
// this checks the plumbing — the grammar built from the live schema compiles and binds what the
// model writes, the gate refuses or reprints it, it runs read-only, the route says so — and that
// hostile questions change nothing, never the quality of the queries.

const WRITES = /\b(?:CREATE|MERGE|SET|DELETE|DETACH|DROP|COPY|LOAD|INSTALL|EXPORT|ATTACH|CALL|REMOVE)\b/;

describeTinyLlm("graph questions written as Cypher by stories260K.gguf", () => {
  let tmp: string;
  let store: KuzuGraphStore;
  let engine: Engine;
  let real: LlmClient;
  let llm: LlmClient & { calls: number; outputs: string[] };

  beforeAll(async () => {
    if (!HAS_TINY_LLM) return;
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-graph-llm-"));
    const file = await writeIncidentRegulation(tmp);
    real = await loadLlm({ modelPath: TINY_LLM_PATH, threads: 1, contextSize: 2048 });
    llm = countingLlm(real);
    const dataDir = path.join(tmp, "data");
    store = createKuzuStore({ dbPath: databasePath(dataDir), minFreeBytes: 0 });
    engine = await createEngine({ dataDir, store, llm, embedder: null });
    const [imported] = await engine.importFiles([file]);
    expect(imported?.status).toBe("ok");
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
    await real?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("writes only what the schema's grammar allows, and the gate reprints or refuses it", async () => {
    const schema = querySchema(await store.graphSchema());
    for (const q of ["Which parties are named in the records article?", "Which sections mention the Commission?", "How many triplets does the library hold?"]) {
      const written = await modelCypher(llm, schema, q, { maxRows: 50 });
      expect(written.written, q).toMatch(/^MATCH \([a-z]:(?:Deadline|Document|Entity|Reference|Section|Term|Triplet)\)/);
      expect(written.written).not.toMatch(WRITES);
      // Cut off at the token cap, or whole (then it ends with the grammar's LIMIT).
      if (written.refusal?.includes("did not finish") !== true) expect(written.written).toMatch(/ LIMIT [1-9][0-9]?$/);
      if (written.gated === null) expect(written.refusal).toMatch(/refused|did not finish/);
      else {
        expect(written.gated.cypher).toMatch(/ LIMIT \d+$/);
        expect(written.gated.limit).toBeLessThanOrEqual(50);
      }
    }
    // Every output the grammar let through either passes the gate or is refused with a reason: never anything else.
    for (const out of llm.outputs) {
      try {
        gateCypher(out, schema, { maxRows: 50, params: [] });
      } catch (err) {
        expect(err).toBeInstanceOf(GateRefusal);
      }
    }
    expect(cypherGrammar(schema)).not.toMatch(WRITES);
  });

  it("routes a list question no pattern reads to the model and says what happened", async () => {
    const calls = llm.calls;
    const r = await engine.ask("Which parties are named in the records article?");
    expect(llm.calls).toBeGreaterThan(calls);
    expect(askResultSchema.safeParse(r).success).toBe(true);
    if (r.rows !== undefined && r.rows.length > 0) {
      expect(r.route).toMatchObject({ route: "graph", source: "model" });
      for (const row of r.rows) expect(row.citation.pageStart).toBeGreaterThanOrEqual(1);
      // Internal ids are looked up to labels before anything is shown.
      expect(JSON.stringify(r.rows.map((row) => row.cells))).not.toMatch(/[0-9a-f]{16}:/);
    } else {
      expect(r.route?.route).toBe("text");
      expect(r.route?.fallback).toMatch(/model|graph query/);
      expect(r.route?.fallback).toMatch(/Answered from the text instead\.$/);
    }
    // Questions the templates read never reach the model.
    const before = llm.calls;
    const exact = await engine.ask("Which articles refer to Article 3?");
    expect(exact.route).toMatchObject({ route: "graph", source: "template" });
    expect(llm.calls).toBe(before);
  });

  it("asks hostile questions with the model loaded without changing or leaving the library", async () => {
    const before = await libraryDigest(store);
    const stats = await engine.stats();
    for (const q of HOSTILE_GRAPH_QUESTIONS) {
      const r = await engine.ask(q, { maxTokens: 32 });
      expect(askResultSchema.safeParse(r).success, q).toBe(true);
      expect(JSON.stringify([r.answer, r.rows ?? []]), q).not.toMatch(/root:|evil|pwned/);
      if (r.route?.source === "model") expect(r.route.query, q).not.toMatch(WRITES);
    }
    expect(await libraryDigest(store)).toEqual(before);
    expect(await engine.stats()).toEqual(stats);
  });
});
