import { describe, expect, it } from "vitest";
import { runHostileInputs } from "../../bench/lib/hostile-inputs.ts";

// Generated hostile files (2,000 pages, over the size limits, a 1 MB line, 500-deep
// outlines, Latin-1 / UTF-16 / binary text, a ZIP named .pdf, symlinks, a unicode path) each end in
// their documented outcome (README "Hostile and broken inputs"), and failures leave the library as
// it was. Needs nothing from ../shared; the shared bad_inputs run in test/corpus/hostile-inputs.test.ts.

describe("hostile inputs (generated)", () => {
  it("every generated file gets its documented outcome", { timeout: 10 * 60_000 }, async () => {
    const result = await runHostileInputs({ shared: false, log: (line) => console.log(line) });
    expect(result.failures).toEqual([]);
    expect(result.tried).toBeGreaterThanOrEqual(14);
    expect(result.handled).toBe(result.tried);
  });
});
