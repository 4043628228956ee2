import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { importProblem } from "../../scripts/lint/import-layers-rule.mjs";
import { checkLayerTable, LAYERS, layerOf } from "../../scripts/lint/layers.mjs";
import { PROJECT_DIR } from "../helpers/cli.ts";

// The design's boundaries are enforced by lint (scripts/lint/layers.mjs, the rule
// clausegraph/import-layers); these prove the rule fires on each forbidden edge, through ESLint
// itself for the cases the issue named and through the rule's resolver for every pair of floors.

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: PROJECT_DIR });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "clausegraph/import-layers").map((m) => m.message);
}

const importOf = (specifier: string): string => `import { x } from "${specifier}";\nexport const a = x;\n`;

/** A file path inside a layer, and the relative specifier from there to a file inside another. */
function fileIn(layer: (typeof LAYERS)[number]): string {
  const p = layer.paths[0] ?? "";
  return p.endsWith("/") ? `${p}probe.ts` : p;
}
function specifier(from: string, to: string): string {
  const fromParts = from.split("/").slice(0, -1);
  const toParts = to.split("/");
  let common = 0;
  while (common < fromParts.length && fromParts[common] === toParts[common]) common++;
  const up = fromParts.length - common;
  return `${up === 0 ? "./" : "../".repeat(up)}${toParts.slice(common).join("/")}`;
}

describe("lint boundaries", () => {
  it("the edges the issue found passing are errors", async () => {
    expect(await layerErrors("core/store/probe.ts", importOf("../../electron/main.ts"))).toHaveLength(1);
    expect(await layerErrors("core/ingest/probe.ts", importOf("../../renderer/src/app.tsx"))).toHaveLength(1);
    expect(await layerErrors("core/contract/probe.ts", importOf("../store/kuzu/kuzu-store.ts"))).toHaveLength(1);
    expect(await layerErrors("core/contract/probe.ts", importOf("../store/graph-store.ts"))).toHaveLength(1);
    expect(await layerErrors("renderer/src/probe.ts", importOf("../../electron/preload.ts"))).toHaveLength(1);
    expect(await layerErrors("renderer/src/chat/probe.tsx", importOf("../../../core/engine.ts"))).toHaveLength(1);
    // A lower stage importing a higher one.
    expect(await layerErrors("core/store/probe.ts", importOf("../retrieve/hybrid-search.ts"))).toHaveLength(1);
    expect(await layerErrors("core/model/probe.ts", importOf("../answer/answer-question.ts"))).toHaveLength(1);
    expect(await layerErrors("core/ingest/probe.ts", importOf("../engine.ts"))).toHaveLength(1);
    // Type-only imports and re-exports count too.
    expect(await layerErrors("core/store/probe.ts", 'import type { X } from "../answer/answer-log.ts";\nexport type Y = X;\n')).toHaveLength(1);
    expect(await layerErrors("core/store/probe.ts", 'export { x } from "../compare/comparisons.ts";\n')).toHaveLength(1);
    // Nothing in core reaches the benches or the tests.
    expect(await layerErrors("core/answer/probe.ts", importOf("../../bench/lib/metrics.ts"))).toHaveLength(1);
  });

  it("reaches a floor with a front door through its index.ts only", async () => {
    expect(await layerErrors("core/answer/probe.ts", importOf("../text/index.ts"))).toEqual([]);
    expect(await layerErrors("core/answer/probe.ts", importOf("../text/stem-english.ts"))).toHaveLength(1);
    expect(await layerErrors("core/graph-query/probe.ts", importOf("../citations/index.ts"))).toEqual([]);
    expect(await layerErrors("core/graph-query/probe.ts", importOf("../citations/pinpoint.ts"))).toHaveLength(1);
    // Inside the floor, its files import each other directly.
    expect(await layerErrors("core/citations/probe.ts", importOf("./pinpoint.ts"))).toEqual([]);
  });

  it("denies places the table does not know: a new file directly under core/ or a new folder of it", async () => {
    // With an import, each import is an error; with none, the file itself is.
    expect(await layerErrors("core/probe.ts", importOf("../electron/main.ts"))).toHaveLength(2);
    expect(await layerErrors("core/probe.ts", importOf("../renderer/src/app.tsx"))).toHaveLength(2);
    expect(await layerErrors("core/probe.ts", importOf("./model/errors.ts"))).toHaveLength(2);
    expect(await layerErrors("core/features/probe.ts", "export const a = 1;\n")).toHaveLength(1);
    // Nor may a known floor import from such a place.
    expect(await layerErrors("core/answer/probe.ts", importOf("../probe.ts"))).toHaveLength(1);
    expect(await layerErrors("core/engine.ts", importOf("./features/ask.ts"))).toHaveLength(1);
  });

  it("allowed edges pass", async () => {
    expect(await layerErrors("core/retrieve/probe.ts", importOf("../store/graph-store.ts"))).toEqual([]);
    expect(await layerErrors("core/store/probe.ts", importOf("./read-cache.ts"))).toEqual([]);
    expect(await layerErrors("renderer/src/chat/probe.tsx", importOf("../../../core/contract/contract.ts"))).toEqual([]);
    expect(await layerErrors("electron/probe.ts", importOf("../core/host/engine-host.ts"))).toEqual([]);
    expect(await layerErrors("bench/probe.ts", importOf("../core/store/kuzu/kuzu-store.ts"))).toEqual([]);
  });

  it("bare modules: electron only in electron/, Node built-ins not where the browser compiles the code, kuzu only in the driver", async () => {
    expect(await layerErrors("core/ingest/probe.ts", importOf("electron"))).toHaveLength(1);
    expect(await layerErrors("core/ingest/probe.ts", importOf("node:fs"))).toEqual([]);
    for (const mod of ["node:fs", "fs", "child_process", "electron"]) {
      expect(await layerErrors("renderer/src/probe.ts", importOf(mod)), mod).toHaveLength(1);
      expect(await layerErrors("core/contract/probe.ts", importOf(mod)), mod).toHaveLength(1);
      expect(await layerErrors("core/model/probe.ts", importOf(mod)), mod).toHaveLength(1);
    }
    expect(await layerErrors("core/store/probe.ts", importOf("kuzu"))).toHaveLength(1);
    expect(await layerErrors("core/store/kuzu/driver.ts", importOf("kuzu"))).toEqual([]);
    // The canary tests reproduce Kuzu's bugs on bare Kuzu.
    expect(await layerErrors("test/unit/probe.test.ts", importOf("kuzu"))).toEqual([]);
  });

  it("every floor may import only floors below it, and every other edge between floors is an error", () => {
    expect(checkLayerTable()).toEqual([]);
    let forbidden = 0;
    for (const from of LAYERS) {
      for (const to of LAYERS) {
        const source = fileIn(from);
        const target = fileIn(to);
        // A floor with a front door is imported through it; the others through any of their files.
        const problem = importProblem(
          source,
          specifier(source, from !== to && to.frontDoor !== undefined ? to.frontDoor : target.replace(/probe\.ts$/, "target.ts")),
        );
        if (from === to || from.allow.includes(to.name)) expect(problem, `${from.name} → ${to.name}`).toBeNull();
        else {
          forbidden++;
          expect(problem, `${from.name} → ${to.name}`).toMatch(new RegExp(`^${from.name} may not import ${to.name}`));
        }
      }
    }
    expect(forbidden).toBeGreaterThan(LAYERS.length * 5);
  });

  it("places files in their floor by the longest matching path", () => {
    expect(layerOf("core/ingest/ocr/ocr-cache.ts")?.name).toBe("ingest");
    expect(layerOf("core/engine.ts")?.name).toBe("engine");
    expect(layerOf("core/cli/commands/ask.ts")?.name).toBe("cli");
    expect(layerOf("bench/ingest.ts")).toBeNull();
  });
});
