import { readdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandom } from "../../bench/lib/fuzz-payloads.ts";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import type { WireEvent } from "../../core/contract/contract.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine, ImportResult } from "../../core/model/engine-types.ts";
import type { JobProgress } from "../../core/model/job.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";
import { regulationPdfOfPages } from "../helpers/regulation-pdf.ts";

// A cancel at any moment of an import (waiting, reading, sectioning, graph,
// embedding, storing, and the index refresh after it) ends that import and the queue goes on: the
// next import works and the library holds exactly the files reported "ok" (listed, found by their
// own word, with their source copy and vectors, nothing else). Seeded: a failure replays. Also:
// files waiting behind another are cancelled at once without being read; a batch rebuilds the
// search index once, at its end; a caller's job id names the progress and cancels a waiting file.

/** Every stage an import reports, in order; "done" is followed by the search-index refresh. */
const STAGES = ["queued", "reading", "sections", "graph", "embeddings", "storing", "done"] as const;
type Stage = (typeof STAGES)[number];
const RUNS = 14;

describe("cancelling imports at random moments (seeded)", () => {
  let dir: string;
  let engine: Engine;
  const logs: string[] = [];
  const file = (name: string): string => path.join(dir, name);
  /** Marker word → document id of every file whose import said "ok". */
  const present = new Map<string, string>();

  async function writeRegulation(marker: string, pages: number): Promise<string> {
    await writeFile(file(`${marker}.pdf`), await regulationPdfOfPages(marker, pages));
    return file(`${marker}.pdf`);
  }

  async function expectConsistent(step: string): Promise<void> {
    const listed = await engine.listDocuments();
    expect(new Set(listed.map((d) => d.id)), step).toEqual(new Set(present.values()));
    expect((await engine.checkLibrary()).damaged, step).toEqual([]);
    const stats = await engine.stats();
    expect(stats.embeddedSections, step).toBe(stats.sections);
    const copies = (await readdir(path.join(dir, "data", "sources"))).filter((name) => name.endsWith(".pdf"));
    expect(new Set(copies.map((name) => name.replace(/\.pdf$/, ""))), step).toEqual(new Set(present.values()));
    for (const [marker, id] of present) {
      const { results } = await engine.search(marker, { k: 3 });
      expect(results[0]?.documentId, `${step}: ${marker} is found by its word`).toBe(id);
    }
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-import-cancel-"));
    // 5 ms per embedding batch: the embedding stage lasts long enough for a cancel to land in it.
    engine = await createEngine({ dataDir: path.join(dir, "data"), embedder: hashEmbedder("hash-32", 32, 5), llm: null, log: (line) => logs.push(line) });
  });

  afterAll(async () => {
    await engine?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`ends the import wherever the cancel lands (${RUNS} runs over every stage), and the next import works`, async () => {
    const random = createRandom(12);
    const seen = new Map<Stage, number>();
    for (let run = 0; run < RUNS; run++) {
      const stage = STAGES[run % STAGES.length] ?? "reading";
      // Half the cancels land the moment the stage starts, half up to 40 ms into it.
      const delayMs = random() < 0.5 ? 0 : Math.floor(random() * 40);
      const target = await writeRegulation(`cancelword${run}x`, 30);
      const controller = new AbortController();
      let armed = false;
      const [result] = await engine.importFiles([target], {
        signal: controller.signal,
        onProgress: (progress: JobProgress) => {
          if (armed || progress.step !== stage) return;
          armed = true;
          if (delayMs === 0) controller.abort();
          else setTimeout(() => controller.abort(), delayMs);
        },
      });
      const step = `run ${run}: cancel at ${stage} + ${delayMs} ms`;
      expect(armed, `${step}: the stage was reached`).toBe(true);
      // Up to "storing" a cancel undoes the import; once "done" was sent the file is in the library.
      if (stage === "done") expect(result?.status, step).toBe("ok");
      else if (delayMs === 0) expect(result?.error?.code, step).toBe("CANCELLED");
      else expect(result?.status === "ok" || result?.error?.code === "CANCELLED", `${step}: ${JSON.stringify(result?.error)}`).toBe(true);
      if (result?.status === "ok" && result.documentId !== null) present.set(`cancelword${run}x`, result.documentId);
      if (result?.error?.code === "CANCELLED") seen.set(stage, (seen.get(stage) ?? 0) + 1);

      // The queue goes on: the next file imports.
      const [next] = await engine.importFiles([await writeRegulation(`nextword${run}x`, 2)]);
      expect(next?.status, `${step}: the next import`).toBe("ok");
      present.set(`nextword${run}x`, next?.documentId ?? "");
      await expectConsistent(step);
    }
    // Every stage before "done" was cancelled at least once.
    for (const stage of STAGES.slice(0, -1)) expect(seen.get(stage) ?? 0, `cancelled during ${stage}`).toBeGreaterThan(0);
  });

  it("cancels a file waiting behind another at once, without reading it; the one ahead finishes", async () => {
    const big = await writeRegulation("bigwaitword", 60);
    const small = await writeRegulation("smallwaitword", 2);
    const controller = new AbortController();
    const smallSteps: string[] = [];
    let bigDone = false;
    // Cancelled while the file ahead is being read: the waiting one's read (core/jobs/read-ahead.ts)
    // cannot have started, reads going one at a time.
    const ahead = engine
      .importFiles([big], { onProgress: (p) => (p.step === "reading" && p.status === "running" ? controller.abort() : undefined) })
      .then(([r]) => {
        bigDone = true;
        return r;
      });
    const waiting = engine.importFiles([small], { signal: controller.signal, onProgress: (p) => smallSteps.push(p.step) });
    const [cancelled] = await waiting;
    expect(cancelled?.error?.code).toBe("CANCELLED");
    expect(bigDone).toBe(false);
    expect(smallSteps).toEqual(["queued", "cancelled"]);
    const first = await ahead;
    expect(first?.status).toBe("ok");
    present.set("bigwaitword", first?.documentId ?? "");
    await engine.idle();
    await expectConsistent("after a waiting file was cancelled");
  });

  it("imports a batch in order, each file read while the one before is stored, and rebuilds the index once, at the end", async () => {
    const markers = ["orderworda", "orderwordb", "orderwordc"];
    const files = await Promise.all(markers.map((m) => writeRegulation(m, 3)));
    const rebuildsBefore = logs.filter((l) => l.startsWith("search index rebuilt")).length;
    const events: string[] = [];
    const results = await engine.importFiles(files, {
      onProgress: (p) => {
        const event = `${path.basename(p.subject ?? "")} ${p.status}`;
        if ((p.status === "done" || (p.status === "running" && p.step === "reading")) && !events.includes(event)) events.push(event);
      },
    });
    expect(results.map((r) => r.status)).toEqual(["ok", "ok", "ok"]);
    // Stored in order; read in order, each while the one before it is stored, and no file read
    // before the one two places ahead of it is done (two parsed documents held at most).
    expect(events.filter((e) => e.endsWith("done"))).toEqual(markers.map((m) => `${m}.pdf done`));
    expect(events.filter((e) => e.endsWith("running"))).toEqual(markers.map((m) => `${m}.pdf running`));
    expect(events.indexOf("orderwordc.pdf running")).toBeGreaterThan(events.indexOf("orderworda.pdf done"));
    expect(logs.filter((l) => l.startsWith("search index rebuilt")).length - rebuildsBefore).toBe(1);
    results.forEach((r, i) => present.set(markers[i] ?? "", r.documentId ?? ""));

    // Two calls one after the other (the UI sends one file at a time): the first is searchable as
    // soon as its result is back.
    const [one] = await engine.importFiles([await writeRegulation("searchableworda", 2)]);
    present.set("searchableworda", one?.documentId ?? "");
    expect(logs.filter((l) => l.startsWith("search index rebuilt")).length - rebuildsBefore).toBe(2);
    const { results: found } = await engine.search("searchableworda", { k: 1 });
    expect(found[0]?.documentId).toBe(one?.documentId);

    // Two files sent one after the other while the first imports (as the pane does): the first's
    // result is back before the second is done (it used to wait for an index rebuild queued behind it).
    const order: string[] = [];
    const [first, second] = await Promise.all([
      engine.importFiles([await writeRegulation("pairworda", 3)]).then(([r]) => (order.push("first result"), r)),
      engine.importFiles([await writeRegulation("pairwordb", 3)], { onProgress: (p) => (p.status === "done" ? order.push("second done") : undefined) }),
    ]);
    expect(order).toEqual(["first result", "second done"]);
    present.set("pairworda", first?.documentId ?? "");
    present.set("pairwordb", second[0]?.documentId ?? "");
    const rebuilds = logs.filter((l) => l.startsWith("search index rebuilt")).map((l) => l.replace("search index rebuilt in ", ""));
    console.info(`[import-queue] ${present.size} documents; full-text index rebuilds: ${rebuilds.join(", ")}`);
    await expectConsistent("after the batch");
  });

  it("documents.import takes the caller's job id: its events carry it and jobs.cancel with it cancels a waiting file", async () => {
    const events: JobProgress[] = [];
    const dispatcher = createDispatcher({
      engine,
      emit: (event: WireEvent) => {
        if (event.event === "job.progress") events.push(event.payload as JobProgress);
      },
      allowPathImport: () => true,
    });
    const ahead = dispatcher.dispatch("documents.import", { files: [await writeRegulation("jobidworda", 40)], jobId: "job-ahead" });
    const waiting = dispatcher.dispatch("documents.import", { files: [await writeRegulation("jobidwordb", 2)], jobId: "job-waiting" });
    // Cancelled before any event of its own beyond "queued" could be sent.
    expect(await dispatcher.dispatch("jobs.cancel", { jobId: "job-waiting" })).toEqual({ ok: true, value: { cancelled: true } });
    const cancelled = await waiting;
    expect(cancelled).toMatchObject({ ok: true, value: [{ status: "error", error: { code: "CANCELLED" } }] });
    const done = (await ahead) as { ok: true; value: ImportResult[] };
    expect(done.value[0]?.status).toBe("ok");
    present.set("jobidworda", done.value[0]?.documentId ?? "");
    expect(new Set(events.map((e) => e.jobId))).toEqual(new Set(["job-ahead", "job-waiting"]));
    expect(events.filter((e) => e.jobId === "job-waiting").map((e) => e.status)).toEqual(["queued", "cancelled"]);
    await engine.idle();
    await expectConsistent("after the dispatcher's imports");
  });
});
