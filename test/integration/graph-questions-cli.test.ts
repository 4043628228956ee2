import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskResult } from "../../core/model/answer-types.ts";
import { createEngine } from "../../core/engine.ts";
import { parseJson, runCli } from "../helpers/cli.ts";
import { writeIncidentRegulation } from "../helpers/graph-fixture.ts";

// `clausegraph ask` shows a graph answer as a table with one source per row and says which route
// the question took and why; `--json` carries the same as `route` and `rows`.

describe("clausegraph ask on graph questions", () => {
  let dir: string;
  let data: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-graph-cli-"));
    data = path.join(dir, "data");
    const engine = await createEngine({ dataDir: data, llm: null, embedder: null });
    expect((await engine.importFiles([await writeIncidentRegulation(dir)]))[0]?.status).toBe("ok");
    await engine.close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints the rows as a table with their sources, and the route with its reason", async () => {
    const run = await runCli(["ask", "Who must notify whom?", "--db", data]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^2 duties to notify\.\n/);
    expect(run.stdout).toMatch(/Who\s+Must\s+Whom\s+Deadline\s+Section\s+Source/);
    expect(run.stdout).toMatch(/\noperator\s+shall notify incident\s+competent authority\s+without undue delay; within 24 hours .*\[S1\] .*Art\. 3, p\. 1\n/);
    expect(run.stdout).toContain("Route: graph — It asks for who must notify whom, which the graph holds exactly.");
  });

  it("says when the graph found nothing and the text answered", async () => {
    const run = await runCli(["ask", "Which articles refer to Article 9?", "--db", data]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Route: text — It asks for sections citing a provision");
    expect(run.stdout).toMatch(/The graph query found nothing: .* Answered from the text instead\./);
  });

  it("gives route and rows in --json", async () => {
    const result = parseJson<AskResult>(await runCli(["ask", "Which articles refer to Article 3?", "--db", data, "--json"]));
    expect(result.route).toMatchObject({ route: "graph", intent: "sections citing a provision", source: "template" });
    expect(result.rows?.map((r) => r.citation.label.replace(/^.* (Art\. \d), (p\. \d)$/, "$1, $2"))).toEqual(["Art. 1, p. 1", "Art. 4, p. 1"]);
  });
});
