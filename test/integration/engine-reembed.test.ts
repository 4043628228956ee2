import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";

// The database records which embedding model its vectors come from. Opening it with another
// model drops the old vectors and re-embeds every document in the background, so searches never
// compare vectors of two different models.

describe("engine: a change of embedding model re-embeds the library", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-reembed-"));
    file = path.join(dir, "rules.txt");
    await writeFile(
      file,
      "Article 1\nScope\nThese rules apply to operators of archives.\n\nArticle 2\nReporting\nOperators shall report breaches to the authority within 72 hours.\n",
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("records the model, then replaces its vectors when another model opens the database", async () => {
    const dataDir = path.join(dir, "data");
    const first = await createEngine({ dataDir, embedder: hashEmbedder("hash-16", 16) });
    expect((await first.importFiles([file]))[0]?.status).toBe("ok");
    const before = await first.stats();
    expect(before).toMatchObject({ embeddingModel: "hash-16" });
    expect(before.embeddedSections).toBeGreaterThan(0);
    await first.close();

    const second = hashEmbedder("hash-32", 32);
    const reopened = await createEngine({ dataDir, embedder: second });
    try {
      await reopened.idle();
      const after = await reopened.stats();
      expect(after).toMatchObject({ embeddingModel: "hash-32", embeddedSections: before.embeddedSections, triplets: before.triplets });
      expect(second.calls).toBe(before.embeddedSections + before.triplets);
      const { results } = await reopened.search("breach reporting deadline", { stages: { bm25: false, graphExpansion: false } });
      expect(results[0]?.label).toBe("Article 2");
      expect(results[0]?.foundBy).toContain("sectionVectors");
    } finally {
      await reopened.close();
    }

    // Opening again with the same model changes nothing.
    const third = hashEmbedder("hash-32", 32);
    const again = await createEngine({ dataDir, embedder: third });
    await again.idle();
    expect(third.calls).toBe(0);
    await again.close();
  });

  it("works without any embedder: BM25 and the graph only", async () => {
    const engine = await createEngine({ dataDir: path.join(dir, "plain"), embedder: null });
    try {
      expect((await engine.importFiles([file]))[0]?.status).toBe("ok");
      expect(await engine.stats()).toMatchObject({ embeddedSections: 0, embeddingModel: "" });
      const { results } = await engine.search("report breaches");
      expect(results[0]?.label).toBe("Article 2");
      expect(results[0]?.foundBy).not.toContain("sectionVectors");
    } finally {
      await engine.close();
    }
  });
});
