import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, databasePath } from "../../core/engine.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";
import { articleLines, makePdf, type FixtureLine } from "../helpers/make-pdf.ts";

// A failure anywhere inside the import of one document must leave nothing of it behind, while
// the documents imported before stay intact and searchable.
function articlePage(n: number, word: string): FixtureLine[] {
  return articleLines(n, `Heading number ${n}`, [`Provision ${n} requires the quarterly reconciliation of ${word} accounts.`]);
}

describe("engine: an import that fails midway leaves no partial document", () => {
  let dir: string;
  let first: string;
  let second: string;

  const LEXICAL = { sectionVectors: false, tripletVectors: false, graphExpansion: false };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-atomic-"));
    first = path.join(dir, "first.pdf");
    second = path.join(dir, "second.pdf");
    await writeFile(first, await makePdf([[1, 2, 3].flatMap((n) => articlePage(n, "walrus"))]));
    // Enough sections for several insert batches, so a fault can hit between two of them.
    const articles = Array.from({ length: 40 }, (_, i) => articlePage(i + 1, i === 39 ? "zeppelin" : "ordinary"));
    await writeFile(second, await makePdf(Array.from({ length: 8 }, (_, p) => articles.slice(p * 5, p * 5 + 5).flat())));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const stage of ["document", "sections:0", "paths", "part-of", "next", "references", "refers-to", "terms"]) {
    it(`fault at "${stage}"`, async () => {
      const dataDir = path.join(dir, `data-${stage.replace(/\W/g, "_")}`);
      let armed = false;
      const store = createKuzuStore({
        dbPath: databasePath(dataDir),
        batchSize: 8,
        faultInjector: (s) => {
          if (armed && s === stage) throw new Error(`injected fault at ${s}`);
        },
      });
      const engine = await createEngine({ dataDir, store });
      try {
        const [ok] = await engine.importFiles([first]);
        expect(ok?.status).toBe("ok");
        const before = await engine.stats();

        armed = true;
        const [failed] = await engine.importFiles([second]);
        expect(failed?.status).toBe("error");
        expect(failed?.error?.message).toMatch(/injected fault/);
        expect(await engine.stats()).toEqual(before);
        expect((await engine.listDocuments()).map((d) => d.fileName)).toEqual(["first.pdf"]);
        // Lexical search only: vectors would return the nearest sections of any text.
        const lexical = async (q: string): Promise<string[]> => (await engine.search(q, { stages: LEXICAL })).results.map((r) => r.label);
        expect(await lexical("zeppelin")).toEqual([]);
        expect(await lexical("ordinary")).toEqual([]);
        expect((await lexical("walrus")).sort()).toEqual(["Article 1", "Article 2", "Article 3"]);

        armed = false;
        const [retry] = await engine.importFiles([second]);
        expect(retry?.status).toBe("ok");
        expect((await engine.stats()).documents).toBe(2);
        expect((await lexical("zeppelin"))[0]).toBe("Article 40");
      } finally {
        await engine.close();
      }
    });
  }
});
