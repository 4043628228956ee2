import { describe, expect, it } from "vitest";
import { runKillRuns } from "../../bench/lib/kill-runs.ts";

// The engine process killed with SIGKILL at seeded random points of an import, of LLM
// triplet extraction (a scripted model: deterministic, no download; first extractions and
// re-extractions that replace triplets), and of a comparison of two documents with a
// scripted model's verdicts, whose re-run must store exactly the uninterrupted comparison. Kills during a deletion run in `npm run bench:robustness`
// (--delete-runs) only: after some of them Kuzu 0.11.3 segfaults on a later delete of sections
// (README, "open bug"), which would take the test worker down with it. The database must always
// reopen, never hold half a document, keep every edge readable from both ends, and a re-run must
// end with the counts of an uninterrupted run. The seed makes a failing run replayable
// (bench/lib/kill-runs.ts): the suite kills right after reported steps only. Kills at arbitrary
// moments run in `npm run bench:robustness`: one of them (an import killed at 3,665 ms, while its
// third document was stored) made the re-run abort in Kuzu's vector extension
// ("optionalIndex.has_value() && !isLoaded()", vector_extension.cpp:23) once in three full runs on
// 25 Nov 2026; not reproduced since (README, "open bugs").
const IMPORT_RUNS = 8;
const EXTRACT_RUNS = 4;
const COMPARE_RUNS = 4;
const SEED = 20_261_122;
const TOTAL = IMPORT_RUNS + EXTRACT_RUNS + COMPARE_RUNS;

describe("crash safety: SIGKILL during import and extraction", () => {
  it(`survives ${TOTAL} kills at random points`, { timeout: 1_200_000 }, async () => {
    const report = await runKillRuns({
      runs: IMPORT_RUNS,
      extractRuns: EXTRACT_RUNS,
      compareRuns: COMPARE_RUNS,
      seed: SEED,
      momentKills: false,
      log: (line) => console.log(`[kill] ${line}`),
    });
    console.log(`[kill] kills landed in: ${JSON.stringify(report.killedIn)}`);
    expect(report.failures).toEqual([]);
    expect(report.runs).toBe(TOTAL);
    expect(report.cleanReopen).toBe(report.runs);
    expect(report.resumedEqual).toBe(report.runs);
    // The kill points must really spread over the work, not all land before the database opens.
    const stages = Object.keys(report.killedIn);
    expect(stages.filter((s) => !s.includes(":")).length).toBeGreaterThanOrEqual(4);
    expect(stages.filter((s) => s.startsWith("extract:") && s !== "extract:finished").length).toBeGreaterThanOrEqual(2);
    expect(stages.filter((s) => s.startsWith("compare:") && s !== "compare:finished").length).toBeGreaterThanOrEqual(3);
  });
});
