import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { JobProgress } from "../../core/model/job.ts";
import { articleLines as article, makePdf } from "../helpers/make-pdf.ts";

describe("engine: import, search, re-import, delete (self-made PDFs)", () => {
  let dir: string;
  let engine: Engine;
  let regulation: string;
  let other: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-engine-"));
    regulation = path.join(dir, "regulation.pdf");
    other = path.join(dir, "other.txt");
    await writeFile(
      regulation,
      await makePdf(
        [
          [
            { text: "REGULATION ON SAMPLE MATTERS", bold: true, size: 14 },
            ...article(1, "Subject matter", ["This Regulation lays down rules on the keeping of records by operators."]),
            ...article(2, "Incident notification", ["Operators shall notify the authority of a major incident within 24 hours."]),
          ],
          [...article(3, "Penalties", ["Member States shall lay down rules on penalties applicable to infringements."])],
        ],
        { title: "Sample Regulation" },
      ),
    );
    await writeFile(other, "Guidance note\n\nThe archive keeps minutes of meetings for ten years.\n");
    engine = await createEngine({ dataDir: path.join(dir, "data") });
  });

  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("imports a PDF and a text file with progress events that always finish", async () => {
    const events: JobProgress[] = [];
    const results = await engine.importFiles([regulation, other], { onProgress: (e) => events.push(e) });
    expect(results.map((r) => r.status)).toEqual(["ok", "ok"]);
    expect(results[0]?.pages).toBe(2);
    expect(results[0]?.sections).toBeGreaterThanOrEqual(3);
    const finals = events.filter((e) => e.status === "done");
    expect(finals).toHaveLength(2);
    expect(events.some((e) => e.step === "reading")).toBe(true);
    const stats = await engine.stats();
    expect(stats.documents).toBe(2);
  });

  it("finds the section that answers a question, with its label and page", async () => {
    const { results } = await engine.search("how fast must operators notify a major incident?", { k: 5 });
    const top = results[0];
    expect(top?.label).toBe("Article 2");
    expect(top?.heading).toBe("Incident notification");
    expect(top?.pageStart).toBe(1);
    expect(top?.text).toContain("within 24 hours");
    const { results: penalties } = await engine.search("penalties for infringements");
    expect(penalties[0]?.label).toBe("Article 3");
    expect(penalties[0]?.pageStart).toBe(2);
  });

  it("treats a re-import of the same bytes as a no-op", async () => {
    const before = await engine.stats();
    const [again] = await engine.importFiles([regulation]);
    expect(again?.status).toBe("skipped");
    expect(await engine.stats()).toEqual(before);
  });

  it("reports a missing file with a typed error and keeps going", async () => {
    const results = await engine.importFiles([path.join(dir, "missing.pdf"), other]);
    expect(results[0]).toMatchObject({ status: "error", error: { code: "FILE_NOT_FOUND" } });
    expect(results[1]?.status).toBe("skipped");
  });

  it("derives triplets and vectors at import and returns them, with a subgraph, from search", async () => {
    const stats = await engine.stats();
    expect(stats.triplets).toBeGreaterThanOrEqual(2);
    expect(stats.embeddingModel).toBe("glove-static-100d");
    expect(stats.embeddedSections).toBeGreaterThanOrEqual(3);
    const response = await engine.search("who has to notify an incident, and by when?", { k: 5 });
    expect(response.results[0]?.label).toBe("Article 2");
    expect(response.results[0]?.foundBy).toContain("sectionVectors");
    const notify = response.triplets.find((t) => t.predicate === "shall notify");
    expect(notify).toMatchObject({ subject: "operator", modality: "must", source: "rule" });
    expect(notify?.deadline).toContain("24 hours");
    const nodeIds = response.subgraph.nodes.map((n) => n.id);
    expect(nodeIds).toContain(`section:${response.results[0]?.sectionId}`);
    expect(nodeIds).toContain(`entity:${notify?.subjectId}`);
    expect(response.subgraph.edges.some((e) => e.kind === "triplet" && e.tripletId === notify?.id)).toBe(true);
    expect(response.subgraph.nodes.length).toBeLessThanOrEqual(60);
  });

  it("expands a graph node to its neighbours and serves the kept original file", async () => {
    const { results, triplets } = await engine.search("incident notification within 24 hours");
    const top = results[0];
    const around = await engine.graphNeighbors(`section:${top?.sectionId}`);
    expect(around.nodes.some((n) => n.kind === "entity")).toBe(true);
    const subjectId = triplets[0]?.subjectId ?? "";
    const entity = await engine.graphNeighbors(`entity:${subjectId}`);
    expect(entity.edges.some((e) => e.kind === "in-section")).toBe(true);
    expect(await engine.graphNeighbors("nonsense")).toEqual({ nodes: [], edges: [] });
    const source = await engine.getDocumentSource(top?.documentId ?? "");
    expect(source.fileName).toBe("regulation.pdf");
    expect(new TextDecoder().decode(source.bytes.slice(0, 5))).toBe("%PDF-");
    await expect(engine.getDocumentSource("nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("deletes a document by file name and everything derived from it", async () => {
    const del = await engine.deleteDocument("regulation.pdf");
    expect(del.deleted).toBe(true);
    const after = await engine.search("incident notification");
    expect(after.results.filter((r) => r.documentId === del.documentId)).toEqual([]);
    expect(after.triplets.filter((t) => t.documentId === del.documentId)).toEqual([]);
    await expect(engine.getDocumentSource(del.documentId ?? "")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const stats = await engine.stats();
    expect(stats.documents).toBe(1);
    expect((await engine.deleteDocument(del.documentId ?? "")).deleted).toBe(false);
  });
});
