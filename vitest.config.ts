import { defineConfig } from "vitest/config";

// Two groups. Vitest's default on a 2-core machine is one worker (cores − 1), which ran the 141
// files one after another: 1,313 s of wall time for 1,232 s of tests, and 2,128 s on the CI
// machine (goal: the whole CI under 25 min). Most files assert behaviour, not timing, and mostly
// wait on single-threaded work (pdf.js, tsx, one Kuzu connection, Chromium): they run two at a
// time (unit + corpus: 420 s instead of ~700 s). The files below run alone, afterwards: they kill
// processes at chosen moments, watch a host answer within a bound while a hostile file is parsed,
// run OCR against per-page budgets, or open the labelled library that test/corpus/graph-questions
// also opens (one Kuzu database, one process at a time).
const EXCLUSIVE = [
  "test/e2e/crash-kill.test.ts",
  "test/e2e/parse-limits.test.ts",
  "test/e2e/parse-limits-web-host.test.ts",
  "test/e2e/soak.test.ts",
  "test/e2e/ocr-ui.test.ts",
  "test/e2e/ocr-resume.test.ts",
  "test/e2e/offline-guarantee.test.ts",
  "test/e2e/disk-faults.test.ts",
  "test/e2e/hostile-inputs.test.ts",
  "test/e2e/answer-graph.test.ts",
];

const shared = {
  // kuzu's native handles segfault at exit under worker threads: every test file gets a process.
  pool: "forks",
  testTimeout: 120_000,
  hookTimeout: 120_000,
} as const;

export default defineConfig({
  test: {
    reporters: ["default"],
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: "parallel",
          include: ["test/**/*.test.ts"],
          exclude: EXCLUSIVE,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: "exclusive",
          include: EXCLUSIVE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
