import { describe, expect, it } from "vitest";
import { MAX_REWRITES, REWRITE_MAX_TOKENS, REWRITE_WEIGHT, fuseRewrites, parseRewrites, rewriteQuestion } from "../../core/answer/question/query-rewrite.ts";
import type { LlmClient, LlmGenerateOptions, LlmResult } from "../../core/model/llm-client.ts";
import type { RankedSection } from "../../core/model/retrieval-types.ts";

// The question rewritten by a model into the regulations' words: what is kept of what it writes,
// how the rewrites' searches meet the question's own, and the caps. End to end with a real GGUF:
// answer-limits.test.ts.

function scripted(text: string): LlmClient & { calls: LlmGenerateOptions[] } {
  const calls: LlmGenerateOptions[] = [];
  return {
    modelId: "scripted",
    contextSize: 2048,
    calls,
    countTokens: (t: string) => Math.ceil(t.length / 4),
    generate(options: LlmGenerateOptions): Promise<LlmResult> {
      calls.push(options);
      return Promise.resolve({ text, promptTokens: 10, completionTokens: 10, firstTokenMs: 1, totalMs: 2, stopReason: "end" });
    },
    close: () => Promise.resolve(),
  };
}

const ranked = (entries: Array<[string, number]>): RankedSection[] =>
  entries.map(([id, score], i) => ({ section: { id }, score, rank: i + 1 }) as unknown as RankedSection);

describe("query rewrite", () => {
  it("keeps up to three usable lines, without numbering, quotes, repeats or the question itself", () => {
    const question = "Who is our vendor under DORA?";
    const text = [
      "1. ICT third-party service provider definition",
      '- "contractual arrangements on the use of ICT services"',
      "Who is our vendor under DORA?",
      "ict third-party service provider definition",
      "x",
      "register of information on contractual arrangements",
      "key contractual provisions",
    ].join("\n");
    const { queries, dropped } = parseRewrites(text, question);
    expect(queries).toEqual([
      "ICT third-party service provider definition",
      "contractual arrangements on the use of ICT services",
      "register of information on contractual arrangements",
    ]);
    expect(queries.length).toBe(MAX_REWRITES);
    expect(dropped).toBe(4);
  });

  it("asks the model under its own token cap and keeps what it wrote; garbage gives no query", async () => {
    const llm = scripted("ICT third-party service provider\nkey contractual provisions");
    const rewrite = await rewriteQuestion(llm, "What must our vendor contract say?");
    expect(rewrite.queries).toEqual(["ICT third-party service provider", "key contractual provisions"]);
    expect(llm.calls[0]?.maxTokens).toBe(REWRITE_MAX_TOKENS);
    expect(llm.calls[0]?.prompt).toBe("What must our vendor contract say?");
    expect((await rewriteQuestion(scripted("Once"), "What must our vendor contract say?")).queries).toEqual([]);
  });

  it("a failing model costs only the rewrite", async () => {
    const failing: LlmClient = { ...scripted(""), generate: () => Promise.reject(new Error("model crashed")) };
    const rewrite = await rewriteQuestion(failing, "What must our vendor contract say?");
    expect(rewrite).toMatchObject({ queries: [], error: "model crashed" });
  });

  it("fuses by weighted normalised scores: the question's own ranking leads, a rewrite re-orders and adds below", () => {
    const own = ranked([
      ["a", 10],
      ["b", 6],
      ["c", 5],
    ]);
    const rewrite = ranked([
      ["c", 2],
      ["z", 2],
    ]);
    const fused = fuseRewrites(own, [rewrite]);
    expect(fused.map((r) => r.section.id)).toEqual(["a", "c", "b", "z"]);
    expect(fused.find((r) => r.section.id === "z")?.score).toBeCloseTo(REWRITE_WEIGHT);
    expect(fused.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
  });
});
