import { afterAll, beforeAll, expect, it } from "vitest";
import { measureLabelledCrosswalks, openCompareLibrary } from "../../bench/lib/compare-library.ts";
import type { LabelledLibrary } from "../../bench/lib/labelled-library.ts";
import type { LabelledMeasures } from "../../bench/lib/compare-library.ts";
import { describeCorpus } from "../helpers/corpus.ts";

// Alignment quality of the crosswalk on the corpus PDFs, with the default embedder and
// no model: the crosswalk NIST SP 800-66r1 states itself (§§ 4.1–4.22 → the HIPAA standard each
// explains) and the topical crosswalk written by reading DORA, the GDPR and NIST SP 800-171
// (test/corpus/compare-crosswalk.json). The library is imported once and cached
// (bench/lib/compare-library.ts), as bench:compare does; timings are bench figures, not asserted.

let library: LabelledLibrary | null = null;
let measures: LabelledMeasures;

describeCorpus("crosswalks between regulations (labelled)", () => {
  beforeAll(async () => {
    library = await openCompareLibrary(() => {});
    measures = await measureLabelledCrosswalks(library.engine, 3);
    for (const m of measures.measures)
      console.log(
        `[compare] ${m.pair}: ${m.sections} sections, ${m.pairsExamined} pairs examined, ${Object.entries(m.hits)
          .map(([s, h]) => `${s} ${h.hits}/${h.pairs}`)
          .join(", ")}`,
      );
  }, 600_000);

  afterAll(async () => {
    await library?.engine.close();
  });

  it("finds the HIPAA standard each NIST SP 800-66r1 section 4.x explains among its 3 best matches (hit@3 ≥ 0.9)", () => {
    expect(measures.nistHipaa.pairs).toBe(22);
    expect(measures.nistHipaa.hitAtK).toBeGreaterThanOrEqual(0.9);
  });

  it("finds the provision an auditor maps each labelled DORA article onto (hit@3 ≥ 0.7 over ≥ 25 pairs)", () => {
    expect(measures.topical.pairs).toBeGreaterThanOrEqual(25);
    expect(measures.topical.hitAtK).toBeGreaterThanOrEqual(0.7);
  });

  it("examines about k·n candidate pairs, never every pair", () => {
    for (const m of measures.measures) expect(m.pairsExamined).toBeLessThanOrEqual(4 * 3 * m.sections);
  });
});
