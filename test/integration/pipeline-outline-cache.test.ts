import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, databasePath } from "../../core/engine.ts";
import type { GraphStore } from "../../core/store/graph-store.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";

// An import resolves its citations against the other documents' outlines. Reading every outline
// of the library for each import made an import's cost grow with the library; documents never
// change once stored, so each outline is read once and kept, and a later import reads only the
// documents new since.

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cg-outlines-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The store, with every getDocumentOutlines call's argument recorded. */
function recording(store: GraphStore, calls: Array<readonly string[] | undefined>): GraphStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== "getDocumentOutlines" || typeof value !== "function") return value;
      return (ids?: readonly string[]) => {
        calls.push(ids === undefined ? undefined : [...ids]);
        return target.getDocumentOutlines(ids);
      };
    },
  });
}

describe("outlines an import resolves citations against", () => {
  it("are read once per document: each import reads only the documents stored since the last", async () => {
    const files = {
      rules: path.join(dir, "rules.txt"),
      guide: path.join(dir, "guide.txt"),
      notes: path.join(dir, "notes.txt"),
    };
    await writeFile(files.rules, "Sample Rules\n\nArticle 1\n\nFirms shall keep records for five years.\n\nArticle 2\n\nFirms shall report incidents.\n");
    await writeFile(files.guide, "Guidance on the Sample Rules\n\n1. Records\n\nArticle 1 of the Sample Rules requires records to be kept.\n");
    await writeFile(files.notes, "Notes\n\n1. Incidents\n\nReports under Article 2 of the Sample Rules go to the authority.\n");
    const dataDir = path.join(dir, "data");
    const calls: Array<readonly string[] | undefined> = [];
    const store = recording(createKuzuStore({ dbPath: databasePath(dataDir), minFreeBytes: 0 }), calls);
    const engine = await createEngine({ dataDir, store, embedder: null });
    try {
      const [rules] = await engine.importFiles([files.rules]);
      const [guide] = await engine.importFiles([files.guide]);
      const [notes] = await engine.importFiles([files.notes]);
      expect([rules?.status, guide?.status, notes?.status]).toEqual(["ok", "ok", "ok"]);
      // The first import finds an empty library; the second reads the rules' outline, the third the guide's alone.
      expect(calls).toEqual([[rules?.documentId], [guide?.documentId]]);
    } finally {
      await engine.close();
    }
  });
});
