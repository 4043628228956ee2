import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../core/engine.ts";
import { DEFAULT_PARSE_LIMITS } from "../../core/ingest/parse-limits.ts";
import { checkDerived, checkSectioned } from "../../core/ingest/yield-limits.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import type { Section } from "../../core/model/section-types.ts";
import { LIBRARY_POOL_FLOOR, writePoolBytes } from "../../core/store/kuzu/memory-plan.ts";
import { hashEmbedder } from "../helpers/hash-embedder.ts";

// What a file yields once read is bounded, not only the file: a text inside the input limits that
// divides into thousands of sections or statements ends TOO_COMPLEX naming the file and the limit,
// before the stage it would overwhelm, and the library is as it was.

function article(n: number): string {
  return `Article ${n}\nScope\nThe operator shall notify the authority within ${n} hours. The provider must keep a register of every incident.\n`;
}

const limitsFor = (overrides: Partial<typeof DEFAULT_PARSE_LIMITS>) => ({ ...DEFAULT_PARSE_LIMITS, ...overrides });

describe("yield limits", () => {
  it("name the file, what went over and the limit", () => {
    const section = (text: string) => ({ text }) as Section;
    expect(() => checkSectioned("/x/huge.txt", [section("a".repeat(11))], limitsFor({ documentTextChars: 10 }))).toThrow(
      /huge\.txt is too complex to read safely: its text runs to 11 characters once read; a document may hold at most 10\. Nothing was imported\./,
    );
    expect(() => checkSectioned("/x/many.md", [section("a"), section("b"), section("c")], limitsFor({ documentSections: 2 }))).toThrow(
      /many\.md .*divides into 3 sections.*at most 2/,
    );
    expect(() => checkDerived("/x/wordy.txt", 20_001, limitsFor({}))).toThrow(/wordy\.txt .*20,001 statements.*at most 16,000/);
    expect(() => checkSectioned("/x/fine.txt", [section("a")], DEFAULT_PARSE_LIMITS)).not.toThrow();
  });

  it("the defaults take the largest corpus documents with room to spare", () => {
    // The largest of the ten corpus PDFs: HIPAA, ~0.44 M characters in 209 sections.
    expect(DEFAULT_PARSE_LIMITS.documentTextChars).toBeGreaterThan(10 * 440_000);
    expect(DEFAULT_PARSE_LIMITS.documentSections).toBeGreaterThan(10 * 300);
  });

  it("a document's text sizes the library pool its write gets", () => {
    expect(writePoolBytes(1_000)).toBe(LIBRARY_POOL_FLOOR);
    expect(writePoolBytes(8_000_000, 4096 * 2 ** 20)).toBeGreaterThan(LIBRARY_POOL_FLOOR);
    expect(writePoolBytes(8_000_000, 128 * 2 ** 20)).toBe(128 * 2 ** 20);
  });
});

describe("an import past a yield limit (engine)", () => {
  let dir: string;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const [limit, value, expected] of [
    ["documentSections", 5, /divides into \d+ sections.*at most 5\b/],
    ["documentTextChars", 500, /text runs to [\d,]+ characters.*at most 500\b/],
    ["documentTriplets", 3, /[\d,]+ statements were found in it.*at most 3\b/],
  ] as const) {
    it(`${limit}: TOO_COMPLEX, nothing stored, the next import works`, async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), "cg-yield-"));
      engine = await createEngine({
        dataDir: path.join(dir, "data"),
        embedder: hashEmbedder("hash-32", 32),
        llm: null,
        parseLimits: { [limit]: value },
      });
      const small = path.join(dir, "small.txt");
      await writeFile(small, `Small rulebook\n\n${article(1)}`);
      expect((await engine.importFiles([small]))[0]?.status).toBe("ok");
      const big = path.join(dir, "big.txt");
      await writeFile(big, `Big rulebook\n\n${Array.from({ length: 12 }, (_, i) => article(i + 1)).join("\n")}`);
      const [result] = await engine.importFiles([big]);
      expect(result?.status).toBe("error");
      expect(result?.error?.code).toBe("TOO_COMPLEX");
      expect(result?.error?.message).toMatch(/^big\.txt is too complex to read safely: /);
      expect(result?.error?.message).toMatch(expected);
      expect((await engine.listDocuments()).map((d) => d.fileName)).toEqual(["small.txt"]);
      // The library answers and takes the next file.
      expect((await engine.search("register of every incident", { k: 3 })).results.length).toBeGreaterThan(0);
      const other = path.join(dir, "other.txt");
      await writeFile(other, `Other rulebook\n\n${article(2)}`);
      expect((await engine.importFiles([other]))[0]?.status).toBe("ok");
    });
  }
});
