import { expect, it } from "vitest";
import { BAD_INPUT_OUTCOMES_WITHOUT_OCR, runHostileInputs } from "../../bench/lib/hostile-inputs.ts";
import { describeCorpus, readManifest } from "../helpers/corpus.ts";

// Every file of ../shared/corpus/bad_inputs imported through the engine (not only the
// parser, as ingest-bad-inputs.test.ts does): the documented outcome, an error naming the file, and
// a library unchanged by every failure. The generated hostile files run in test/e2e/.

describeCorpus("hostile inputs: bad_inputs through the engine", () => {
  it("every bad input gets its documented outcome", { timeout: 10 * 60_000 }, async () => {
    const result = await runHostileInputs({ generated: false, log: (line) => console.log(line) });
    expect(result.failures).toEqual([]);
    // Each scan is imported twice: with OCR off (NO_TEXT_LAYER) and with the default (read with OCR).
    const listed = readManifest().filter((f) => f.path.startsWith("bad_inputs/")).length + Object.keys(BAD_INPUT_OUTCOMES_WITHOUT_OCR).length;
    expect(result.tried).toBe(listed);
    expect(result.handled).toBe(listed);
  });
});
