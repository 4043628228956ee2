import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askResultSchema } from "../../core/model/answer-schemas.ts";
import type { AskResult } from "../../core/model/answer-types.ts";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { MAX_EVIDENCE_NODES } from "../../core/graph-query/evidence-graph.ts";
import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../core/model/llm-client.ts";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { HOSTILE_GRAPH_QUESTIONS, libraryDigest, writeIncidentRegulation } from "../helpers/graph-fixture.ts";

// Questions the graph answers exactly, through engine.ask without a model (the engine's own
// parameterised templates): rows citing a section and page, the route and its reason, the
// fallback to the text, no graph for a refusal, and hostile questions that change nothing.

const cells = (r: AskResult, name: string): string[] => (r.rows ?? []).map((row) => row.cells.find((c) => c.name === name)?.value ?? "");

describe("graph questions through engine.ask (templates, no model)", () => {
  let tmp: string;
  let store: KuzuGraphStore;
  let engine: Engine;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-graph-ask-"));
    const file = await writeIncidentRegulation(tmp);
    const dataDir = path.join(tmp, "data");
    store = createKuzuStore({ dbPath: databasePath(dataDir), minFreeBytes: 0 });
    engine = await createEngine({ dataDir, store, llm: null, embedder: null });
    const [imported] = await engine.importFiles([file]);
    expect(imported?.status).toBe("ok");
  });
  afterAll(async () => {
    await engine.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("answers a citing question with one row per citing article, each citing its section and page", async () => {
    const r = await engine.ask("Which articles refer to Article 3?");
    expect(askResultSchema.parse(r)).toBeTruthy();
    expect(r.route).toMatchObject({
      route: "graph",
      intent: "sections citing a provision",
      source: "template",
      columns: ["Section", "Heading", "Citation", "Cites"],
    });
    expect(r.route?.query).toMatch(/^MATCH /);
    expect(cells(r, "Section").map((s) => s.replace(/^.* /, ""))).toEqual(["1", "4"].map((n) => `${n}`));
    for (const row of r.rows ?? []) {
      expect(row.citation.label).toMatch(/Art\. [14]/);
      expect(row.citation.pageStart).toBeGreaterThanOrEqual(1);
      expect(r.citations.map((c) => c.key)).toContain(row.citation.key);
    }
    expect(r.subgraph.nodes.length).toBeGreaterThan(0);
    expect(r.subgraph.nodes.length).toBeLessThanOrEqual(MAX_EVIDENCE_NODES);
  });

  it("answers definitions, duties, notifications, deadlines, structure and mentions exactly", async () => {
    const defined = await engine.ask("Where is 'incident' defined?");
    expect(cells(defined, "Term")).toEqual(["incident"]);
    expect(cells(defined, "Defined in")[0]).toMatch(/Art\. 2$/);

    const duties = await engine.ask("What must the operator do?");
    expect(duties.route?.route).toBe("graph");
    expect(cells(duties, "Duty")).toEqual(["shall notify incident (to competent authority)", "shall keep record of incidents"]);
    expect(cells(duties, "Deadline")).toEqual(["without undue delay; within 24 hours", "for five years"]);

    const notify = await engine.ask("Who must notify whom?");
    expect((notify.rows ?? []).map((row) => [row.cells.find((c) => c.name === "Who")?.value, row.cells.find((c) => c.name === "Whom")?.value])).toEqual([
      ["operator", "competent authority"],
      ["competent authority", "commission"],
    ]);

    const deadlines = await engine.ask("List every deadline");
    expect(cells(deadlines, "Deadline")).toEqual(["without undue delay", "within 24 hours", "within one month", "for five years"]);

    // A provision the question names keeps the rows to it.
    const inArticle4 = await engine.ask("List every deadline in Article 4");
    expect(cells(inArticle4, "Deadline")).toEqual(["for five years"]);
    expect(cells(await engine.ask("What must the operator do under Article 4?"), "Duty")).toEqual(["shall keep record of incidents"]);
    const toAuthority = await engine.ask("Who must notify the competent authority under Article 3?");
    expect(cells(toAuthority, "Who")).toEqual(["operator"]);
    expect(cells(toAuthority, "Section").every((x) => x.endsWith("Art. 3"))).toBe(true);
    expect(cells(await engine.ask("What must the operator do under Article 3?"), "Duty")).toEqual(["shall notify incident (to competent authority)"]);

    const parent = await engine.ask("What is the parent of Article 3?");
    expect(cells(parent, "Section")[0]).toMatch(/Chapter I$/);
    const siblings = await engine.ask("What are the siblings of Article 2?");
    expect(cells(siblings, "Section").map((s) => s.slice(-6))).toEqual(["Art. 1", "Art. 3", "Art. 4"]);

    const inRecords = await engine.ask("Which documents mention 'incident' in Article 4?");
    expect(inRecords.route?.route).toBe("graph");
    expect(cells(inRecords, "Sections mentioning it")).toEqual(["1"]);
    expect(cells(inRecords, "First mention")[0]).toMatch(/Art\. 4$/);

    const mentions = await engine.ask("Which documents mention 'incident'?");
    expect(mentions.rows).toHaveLength(1);
    // The title, the chapter's opening and the four articles' words: every section but the definitions' heading.
    expect(Number(cells(mentions, "Sections mentioning it")[0])).toBeGreaterThanOrEqual(4);
  });

  it("answers a question with a topic from both the graph and the text, merged", async () => {
    const r = await engine.ask("Who must notify whom about an incident?");
    expect(r.route).toMatchObject({ route: "both", reason: expect.stringContaining("incident") });
    expect(r.rows?.length).toBeGreaterThan(0);
    expect(r.sentences.some((s) => s.more !== true && s.citationKeys.length > 0)).toBe(true);
    const keys = new Set(r.citations.map((c) => c.key));
    for (const row of r.rows ?? []) expect(keys.has(row.citation.key)).toBe(true);
  });

  it("falls back to the text when the graph finds nothing, and says so", async () => {
    const r = await engine.ask("Which articles refer to Article 9?");
    expect(r.route).toMatchObject({ route: "text", fallback: expect.stringMatching(/found nothing.*Answered from the text instead\.$/) });
    expect(r.rows).toBeUndefined();
  });

  it("routes what the documents say to the text, and shows no graph for a refusal", async () => {
    const text = await engine.ask("What does Article 3 say about incidents?");
    expect(text.route).toMatchObject({ route: "text", reason: expect.stringContaining("text") });
    const refused = await engine.ask("Which articles of the GDPR refer to Article 6?");
    expect(refused.route?.route).toBe("text");
    expect(refused.citations).toEqual([]);
    expect(refused.subgraph).toEqual({ nodes: [], edges: [] });
    expect(refused.rows).toBeUndefined();
  });

  it("lists every section stating a fact about an entity of the answer graph, in reading order", async () => {
    const r = await engine.ask("What must the operator do?");
    const operator = r.subgraph.nodes.find((n) => n.kind === "entity" && n.label === "operator");
    expect(operator).toBeDefined();
    const facts = await engine.entityFacts(operator?.id ?? "");
    expect(facts.name).toBe("operator");
    expect(facts.sections.map((s) => [s.label.replace(/^.* (Art\. \d)/, "$1"), s.role, s.fact])).toEqual([
      ["Art. 3, p. 1", "subject", "operator — shall notify — incident"],
      ["Art. 4, p. 1", "subject", "operator — shall keep — record of incidents"],
    ]);
    const section = await engine.getSection(facts.sections[0]?.sectionId ?? "");
    const span = facts.sections[0]?.span ?? { start: 0, end: 0 };
    expect(section?.text.slice(span.start, span.end)).toMatch(/^The operator shall notify/);
    await expect(engine.entityFacts("section:whatever")).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(engine.entityFacts(`${operator?.id ?? ""}-unknown`)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("reopens a graph answer of a conversation with its route, rows and evidence graph", async () => {
    const conversation = await engine.createConversation();
    const live = await engine.ask("Who must notify whom?", { conversationId: conversation.id });
    const [turn] = (await engine.getConversation(conversation.id)).turns;
    expect(turn?.result?.route).toEqual(live.route);
    expect(turn?.result?.rows).toEqual(live.rows);
    expect(turn?.result?.subgraph.nodes.map((n) => n.id).sort()).toEqual(live.subgraph.nodes.map((n) => n.id).sort());
  });

  it("asks hostile questions without changing, leaking or reading outside the library", async () => {
    const before = await libraryDigest(store);
    const statsBefore = await engine.stats();
    for (const q of HOSTILE_GRAPH_QUESTIONS) {
      const r = await engine.ask(q);
      expect(askResultSchema.safeParse(r).success, q).toBe(true);
      const shown = JSON.stringify([r.answer, r.rows ?? []]);
      expect(shown, q).not.toMatch(/root:|evil|pwned/);
      expect(shown, q).not.toContain(tmp);
      if (r.route?.query !== undefined) expect(r.route.query, q).not.toMatch(/\b(?:CREATE|MERGE|SET|DELETE|DROP|COPY|LOAD|INSTALL|EXPORT|ATTACH|CALL)\b/);
    }
    expect(await libraryDigest(store)).toEqual(before);
    expect(await engine.stats()).toEqual(statsBefore);
    expect(existsSync("/tmp/clausegraph-leak.csv")).toBe(false);
    expect(existsSync("/tmp/clausegraph-export")).toBe(false);
  });
});

/** A model that writes the queued Cypher for graph prompts (those with the Cypher grammar) and declines everything else. */
function scriptedCypherLlm(): LlmClient & { queue: string[]; grammars: string[] } {
  const llm = {
    modelId: "scripted-cypher",
    contextSize: 4096,
    queue: [] as string[],
    grammars: [] as string[],
    countTokens: (text: string) => Math.ceil(text.length / 4),
    async generate(options: LlmGenerateOptions): Promise<LlmResult> {
      const cypher = options.grammar?.startsWith('root ::= "MATCH "') === true;
      if (cypher && options.grammar !== undefined) llm.grammars.push(options.grammar);
      const text = cypher ? (llm.queue.shift() ?? "MATCH (a:Section) RETURN a LIMIT 1") : "The documents provided do not answer this.";
      return { text, promptTokens: 10, completionTokens: 10, firstTokenMs: 1, totalMs: 1, stopReason: "end" };
    },
    close: () => Promise.resolve(),
  };
  return llm;
}

describe("graph questions a model writes (scripted model)", () => {
  let tmp: string;
  let store: KuzuGraphStore;
  let engine: Engine;
  const llm = scriptedCypherLlm();
  const QUESTION = "Which parties are named in the records article?";

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cg-graph-model-"));
    const file = await writeIncidentRegulation(tmp);
    const dataDir = path.join(tmp, "data");
    store = createKuzuStore({ dbPath: databasePath(dataDir), minFreeBytes: 0 });
    engine = await createEngine({ dataDir, store, llm, embedder: null });
    expect((await engine.importFiles([file]))[0]?.status).toBe("ok");
  });
  afterAll(async () => {
    await engine.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("runs the model's gated query read-only and shows labels, never internal ids, each row cited", async () => {
    llm.queue.push("MATCH (a:Section)-[:REFERS_TO]->(b:Section) RETURN a, b.id, b LIMIT 5");
    const r = await engine.ask(QUESTION);
    expect(r.route).toMatchObject({ route: "graph", source: "model", query: "MATCH (a:Section)-[:REFERS_TO]->(b:Section) RETURN a, b.id, b LIMIT 5" });
    expect(llm.grammars.at(-1)).toContain('"Section"');
    expect(r.rows?.map((row) => row.cells.map((c) => c.value.replace(/^.*(Art\. \d)$/, "$1")))).toEqual([
      ["Art. 1", "Art. 3", "Art. 3"],
      ["Art. 4", "Art. 3", "Art. 3"],
    ]);
    expect(JSON.stringify(r.rows)).not.toMatch(/"value":"[0-9a-f]{16}:/);
    for (const row of r.rows ?? []) expect(row.citation.pageStart).toBeGreaterThanOrEqual(1);
  });

  it("refuses a model's write, hidden column or unknown name, falls back to the text and changes nothing", async () => {
    const before = await libraryDigest(store);
    for (const [cypher, why] of [
      ["MATCH (d:Document) DETACH DELETE d", /not run: its query was refused/],
      ["MATCH (d:Document) RETURN d.file LIMIT 5", /not run: its query was refused/],
      ["MATCH (m:Meta) RETURN m LIMIT 5", /not run: its query was refused/],
      ["MATCH (e:Entity) RETURN e.name LIMIT 5", /found nothing: 0 rows .* 5 rows name no section/],
    ] as const) {
      llm.queue.push(cypher);
      const r = await engine.ask(QUESTION);
      expect(r.route?.route, cypher).toBe("text");
      expect(r.route?.fallback, cypher).toMatch(why);
      expect(r.rows).toBeUndefined();
    }
    expect(await libraryDigest(store)).toEqual(before);
  });
});
