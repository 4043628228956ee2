import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { PROJECT_DIR } from "../helpers/cli.ts";

// The process boundaries of the design are enforced by lint; these prove the rules really fire.
async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: PROJECT_DIR });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("lint boundaries", () => {
  it("core/ may not import electron", async () => {
    expect(await restrictedImports("core/ingest/x.ts", 'import { app } from "electron";\nexport const a = app;\n')).toHaveLength(1);
    expect(await restrictedImports("core/ingest/x.ts", 'import fs from "node:fs";\nexport const a = fs;\n')).toHaveLength(0);
  });

  it("renderer/ may not import Node built-ins, electron, or engine internals", async () => {
    for (const mod of ["node:fs", "fs", "child_process", "electron"]) {
      expect(await restrictedImports("renderer/src/x.ts", `import m from "${mod}";\nexport const a = m;\n`), mod).toHaveLength(1);
    }
    expect(await restrictedImports("renderer/src/x.ts", 'import { x } from "../../core/engine.ts";\nexport const a = x;\n')).toHaveLength(1);
    expect(await restrictedImports("renderer/src/x.ts", 'import { x } from "../../core/contract/contract.ts";\nexport const a = x;\n')).toHaveLength(0);
  });

  it("the shared contract stays browser-safe", async () => {
    expect(await restrictedImports("core/contract/x.ts", 'import path from "node:path";\nexport const a = path;\n')).toHaveLength(1);
  });
});
