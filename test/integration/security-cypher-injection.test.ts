import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { regulationPdf } from "../../bench/lib/trust-fixtures.ts";
import type { Channel, Result } from "../../core/contract/contract.ts";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import type { Dispatcher } from "../../core/contract/dispatch.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine, EngineStats } from "../../core/model/engine-types.ts";
import { ftsQueryLiteral } from "../../core/store/search/fts-query.ts";
import { cypherString } from "../../core/store/kuzu/driver.ts";
import { vectorLiteral } from "../../core/store/kuzu/store-rows.ts";

// "Cypher injection": user text reaches Kuzu only as a parameter, or — where Kuzu 0.11
// refuses parameters (QUERY_VECTOR_INDEX's vector) — as a literal built from numbers only; the
// full-text index (the engine's own) takes letters and spaces only. Hostile strings go through every channel that takes text, against a real
// engine and store; each must be answered normally, NOT_FOUND or VALIDATION, and nothing may change.

const HOSTILE: string[] = [
  "'",
  '"',
  "\\",
  "\\'",
  "''",
  "'}) MATCH (n) DETACH DELETE n //",
  "x'}) MATCH (n) DETACH DELETE n RETURN 1 //",
  '"}) MATCH (n) DETACH DELETE n //',
  "CALL show_tables() RETURN *",
  "'; CALL DROP_FTS_INDEX('Section', 'section_fts'); //",
  "MATCH (d:Document) DELETE d",
  "$param",
  "$id",
  "{id: 'x'}",
  "`Document`",
  "data breach' OR '1'='1",
  "section:' OR 1=1 //",
  "entity:'}) DETACH DELETE n //",
  "term:\\'",
  "ǅemoji 🙂 ʼmodifier apostropheʼ ′prime′ ＇fullwidth＇",
  "\u202e\u200b\u2028\u2029",
  "nul\u0000byte",
  "\u0000",
  "x".repeat(1999),
  "'".repeat(500),
  "\\".repeat(500),
];

/** Channels that take user text, and how each hostile string becomes their payload. */
const PAYLOADS: [Channel, (text: string) => unknown][] = [
  ["search", (text) => ({ query: text })],
  ["ask", (text) => ({ question: text, k: 3 })],
  ["sections.get", (id) => ({ id })],
  ["sections.list", (documentId) => ({ documentId })],
  ["graph.neighbors", (nodeId) => ({ nodeId })],
  ["documents.delete", (id) => ({ id })],
  ["documents.source", (id) => ({ id })],
];

describe("Cypher injection through every text channel (real engine)", () => {
  let tmp: string;
  let engine: Engine;
  let dispatcher: Dispatcher;
  let before: EngineStats;
  let documentId: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-cypher-"));
    const file = path.join(tmp, "regulation.pdf");
    await writeFile(file, await regulationPdf());
    // Without embeddings the engine opens in a second; the vector literal is tested directly below.
    engine = await createEngine({ dataDir: path.join(tmp, "data"), llm: null, embedder: null });
    const [imported] = await engine.importFiles([file]);
    expect(imported?.status).toBe("ok");
    documentId = imported?.documentId ?? "";
    dispatcher = createDispatcher({ engine, emit: () => {} });
    before = await engine.stats();
    expect(before.documents).toBe(1);
    expect(before.sections).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await engine.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("answers every hostile string normally, NOT_FOUND or VALIDATION", async () => {
    const wrong: string[] = [];
    for (const [channel, payload] of PAYLOADS) {
      for (const text of HOSTILE) {
        const result: Result<unknown> = await dispatcher.dispatch(channel, payload(text));
        if (!result.ok && result.error.code !== "NOT_FOUND" && result.error.code !== "VALIDATION") {
          wrong.push(`${channel} ${JSON.stringify(text.slice(0, 40))}: ${result.error.code} ${result.error.message}`);
        }
        if (result.ok && channel === "documents.delete") {
          expect(result.value).toMatchObject({ deleted: false });
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("still finds the document's own words next to Cypher syntax", async () => {
    const result = await dispatcher.dispatch("search", { query: "'}) MATCH (n) DETACH DELETE n // personal data breach" });
    expect(result.ok).toBe(true);
    if (result.ok) expect(JSON.stringify(result.value)).toContain("personal data breach");
  });

  it("leaves the library exactly as it was", async () => {
    expect(await engine.stats()).toEqual(before);
    const documents = await engine.listDocuments();
    expect(documents.map((d) => d.id)).toEqual([documentId]);
    expect((await engine.getSections(documentId)).length).toBe(before.sections);
  });
});

describe("the literals Kuzu cannot take as parameters", () => {
  it("ftsQueryLiteral lets no quote, backslash, dollar or brace through, whatever the input", () => {
    for (const text of HOSTILE) {
      const literal = ftsQueryLiteral(text);
      expect(literal).toMatch(/^([\p{L}\p{M}]+( [\p{L}\p{M}]+)*)?$/u);
      expect(literal).not.toMatch(/['"\\`$(){}[\]\u0000-\u001f]/);
    }
  });

  it("vectorLiteral prints only numbers, whatever the floats", () => {
    const values = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e-300, 3e38, -3e38, 0.5, -1, 1e-7];
    const literal = vectorLiteral(Float32Array.from(values));
    expect(literal).toMatch(/^\[(-?\d+(\.\d+)?(e[+-]\d+)?)(,-?\d+(\.\d+)?(e[+-]\d+)?)*\]$/);
    expect(literal).not.toMatch(/NaN|Infinity/);
    expect(vectorLiteral(new Float32Array(0))).toBe("[]");
  });

  it("cypherString escapes quotes and backslashes so the literal cannot be closed early", () => {
    for (const text of HOSTILE) {
      const quoted = cypherString(text);
      const inner = quoted.slice(1, -1);
      // Every quote inside is escaped: removing escaped pairs leaves no bare quote or lone backslash.
      expect(inner.replace(/\\[\\']/g, "")).not.toMatch(/['\\]/);
    }
  });
});
