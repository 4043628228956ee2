import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkImportCycles } from "../../scripts/lint/import-cycles.mjs";
import { PROJECT_DIR } from "../helpers/cli.ts";

// core/ has no import cycle, between files or between folders (scripts/lint/import-cycles.mjs,
// also run by `npm run lint`), and the check finds one when there is.

const tmp: string[] = [];
afterAll(async () => {
  for (const dir of tmp) await rm(dir, { recursive: true, force: true });
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), "cg-cycles-"));
  tmp.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

describe("import cycles", () => {
  it("core/ has none", () => {
    const result = checkImportCycles(PROJECT_DIR, ["core"]);
    expect(result.files).toBeGreaterThan(250);
    expect(result.report).toEqual([]);
  });

  it("finds a file cycle through type-only imports and re-exports", async () => {
    const root = await tree({
      "core/a/x.ts": 'import type { Y } from "./y.ts";\nexport type X = Y;\n',
      "core/a/y.ts": 'export { z } from "./z.ts";\nexport type Y = string;\n',
      "core/a/z.ts": 'import type { X } from "./x.ts";\nexport const z: X = "";\n',
    });
    const result = checkImportCycles(root, ["core"]);
    expect(result.fileCycles).toEqual([["core/a/x.ts", "core/a/y.ts", "core/a/z.ts"]]);
  });

  it("finds a folder cycle whose files form no cycle, nested folders counted with their top folder", async () => {
    const root = await tree({
      "core/store/graph-store.ts": 'import type { R } from "../retrieve/types.ts";\nexport type G = R;\n',
      "core/retrieve/sub/stage.ts": 'import type { Other } from "../../store/other.ts";\nexport type S = Other;\n',
      "core/retrieve/types.ts": "export type R = number;\n",
      "core/store/other.ts": "export type Other = string;\n",
      "core/engine.ts": 'import type { G } from "./store/graph-store.ts";\nexport type E = G;\n',
    });
    const result = checkImportCycles(root, ["core"]);
    expect(result.fileCycles).toEqual([]);
    expect(result.folderCycles).toEqual([["core/retrieve", "core/store"]]);
    expect(result.report.join("\n")).toContain("core/retrieve/sub/stage.ts → core/store/other.ts");
  });
});
