import { describe, expect, it } from "vitest";
import { englishPipeline } from "../../core/text/index.ts";

// wink-eng-lite-web-model re-escapes its meta model on every load: a process that loaded it about
// twenty times failed every later import with "Invalid string length". An engine loads it twice,
// and a long session or a test run opens many engines.

describe("the English model", () => {
  it("loads any number of times in one process, each pipeline reading alike", () => {
    const text = "The controller shall notify the breach. The processor shall assist the controller.";
    const sentencesOf = (pipes: readonly string[]): string[] => englishPipeline(pipes).readDoc(text).sentences().out();
    const first = sentencesOf(["sbd"]);
    expect(first).toHaveLength(2);
    for (let i = 0; i < 40; i++) expect(sentencesOf(i % 2 === 0 ? ["sbd"] : ["sbd", "pos"])).toEqual(first);
    const tagged = englishPipeline(["sbd", "pos"])
      .readDoc(text)
      .tokens()
      .out(englishPipeline(["sbd"]).its.pos);
    expect(tagged).toContain("VERB");
  });
});
