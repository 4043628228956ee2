import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJson, runCli } from "../helpers/cli.ts";
import { writeFakeGguf } from "../helpers/fake-gguf.ts";

interface ListJson {
  modelsDir: string;
  models: { id: string; kind: string; installed: boolean; origin: string }[];
}

let work = "";
beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "cg-models-cli-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("clausegraph models", () => {
  it("list, import, remove with --json and exit codes", async () => {
    const data = path.join(work, "data");
    const empty = await runCli(["models", "list", "--db", data, "--json"]);
    expect(empty.code).toBe(0);
    const list = parseJson<ListJson>(empty);
    expect(list.modelsDir).toBe(path.join(data, "models"));
    expect(list.models.filter((m) => m.kind === "llm").map((m) => m.id)).toContain("qwen2.5-3b-instruct-q4_k_m");

    const file = path.join(work, "tiny-test.gguf");
    await writeFakeGguf(file);
    const imported = await runCli(["models", "import", file, "--data-dir", data, "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(parseJson<{ status: string; model: { id: string } }>(imported)).toMatchObject({ status: "imported", model: { id: "tiny-test" } });

    const human = await runCli(["models", "--db", data]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/✓ installed\s+tiny-test\s+llm/);

    const removed = await runCli(["models", "remove", "tiny-test", "--db", data, "--json"]);
    expect(removed.code).toBe(0);
    expect(parseJson<{ removed: string }>(removed).removed).toBe("tiny-test");
  });

  it("reports a bad file with its error code and exit 1, bad usage with exit 2", async () => {
    const data = path.join(work, "data2");
    const notGguf = path.join(work, "notes.gguf");
    await writeFile(notGguf, "hello");
    const bad = await runCli(["models", "import", notGguf, "--db", data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/MODEL_INVALID: .*notes\.gguf is not a usable GGUF model/);

    expect((await runCli(["models", "import", "--db", data])).code).toBe(2);
  });
});
