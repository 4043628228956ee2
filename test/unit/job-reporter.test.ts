import { describe, expect, it } from "vitest";
import type { JobProgress } from "../../core/model/job.ts";
import { createJobReporter } from "../../core/jobs/job-reporter.ts";
import { ClauseGraphError } from "../../core/model/errors.ts";

describe("job reporter", () => {
  it("throttles intermediate updates but always sends step changes and the final event", () => {
    let t = 0;
    const events: JobProgress[] = [];
    const job = createJobReporter({ listener: (e) => events.push(e), subject: "a.pdf", throttleMs: 100, now: () => t });
    for (let i = 1; i <= 50; i++) {
      t += 1;
      job.update("reading", i, 50);
    }
    job.update("storing", 0, 10);
    job.finish("done");
    job.finish("failed", new Error("late")); // ignored: a job is finalized once
    const statuses = events.map((e) => e.status);
    expect(statuses[0]).toBe("queued");
    expect(statuses.at(-1)).toBe("done");
    expect(statuses.filter((s) => s === "done" || s === "failed")).toHaveLength(1);
    const reading = events.filter((e) => e.step === "reading");
    expect(reading.length).toBeLessThan(5);
    expect(reading.at(-1)?.current).toBe(50);
    expect(events.some((e) => e.step === "storing")).toBe(true);
    expect(new Set(events.map((e) => e.jobId)).size).toBe(1);
    expect(events.every((e) => e.subject === "a.pdf")).toBe(true);
  });

  it("carries a typed error on failure and honours cancellation", () => {
    const events: JobProgress[] = [];
    const controller = new AbortController();
    const job = createJobReporter({ listener: (e) => events.push(e), subject: "b.pdf", signal: controller.signal });
    expect(() => job.throwIfCancelled()).not.toThrow();
    controller.abort();
    let caught: unknown;
    try {
      job.throwIfCancelled();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ClauseGraphError);
    expect((caught as ClauseGraphError).code).toBe("CANCELLED");
    job.finish("cancelled", caught);
    expect(events.at(-1)).toMatchObject({ status: "cancelled", error: { code: "CANCELLED", file: "b.pdf" } });
  });

  it("survives a listener that throws", () => {
    const job = createJobReporter({
      listener: () => {
        throw new Error("window closed");
      },
    });
    expect(() => job.update("reading", 1, 2)).not.toThrow();
    expect(() => job.finish("done")).not.toThrow();
  });
});
