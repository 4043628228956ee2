import { describe, expect, it } from "vitest";
import {
  AMBIGUOUS_FUNCTION_WORDS,
  DRAFTING_WORDS,
  cosineSimilarity,
  createEnglishStems,
  dot,
  isFunctionWord,
  jaccard,
  makeRoom,
  memoized,
  stemEnglish,
  stemEnglishFolded,
  stemItalian,
  tokenize,
  WORD,
} from "../../core/text/index.ts";

describe("text toolkit", () => {
  it("reads words of any script, lower-cased, digits kept", () => {
    expect(tokenize("Article 33(1): notify the Authority — entro 72 ore, così")).toEqual([
      "article",
      "33",
      "1",
      "notify",
      "the",
      "authority",
      "entro",
      "72",
      "ore",
      "così",
    ]);
  });

  it("finds exactly the runs WORD matches, in any script, astral letters and lone surrogates included", () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const samples = ["İstanbul ǅemal ΣΑΣ straße ﬁne ½ ² ٣ 𝔘𝔫𝔦 e\u0301", "\ud800x\udc00 y"];
    for (let i = 0; i < 300; i++) {
      let text = "";
      for (let j = 0; j < 80; j++) {
        const kind = next(4);
        text +=
          kind === 0
            ? String.fromCharCode(next(128))
            : kind === 1
              ? String.fromCharCode(next(0x3000))
              : kind === 2
                ? String.fromCodePoint(0x10000 + next(0x20000))
                : String.fromCharCode(0xd800 + next(0x800));
      }
      samples.push(text);
    }
    for (const text of samples) expect(tokenize(text)).toEqual([...text.toLowerCase().matchAll(WORD)].map((m) => m[0]));
  });

  it("makes room in a bounded map by forgetting its oldest entries, a tenth of it at a time", () => {
    const map = new Map<number, number>();
    for (let i = 0; i < 100; i++) {
      makeRoom(map, 20);
      map.set(i, i);
      expect(map.size).toBeLessThanOrEqual(20);
    }
    // The newest stay; never emptied at once.
    expect(map.has(99)).toBe(true);
    expect(map.size).toBeGreaterThanOrEqual(18);
    expect(Math.min(...map.keys())).toBeGreaterThan(70);
    makeRoom(map, 20, 5);
    expect(map.size + 5).toBeLessThanOrEqual(20);
    makeRoom(map, 20, 50);
    expect(map.size).toBe(0);
  });

  it("knows the function words of English and Italian, and keeps the Italian ones that are English words", () => {
    for (const w of ["the", "whom", "della", "sono", "quali"]) expect(isFunctionWord(w)).toBe(true);
    for (const w of ["breach", "notify", "gara", "non", "come"]) expect(isFunctionWord(w)).toBe(false);
    expect([...AMBIGUOUS_FUNCTION_WORDS].sort()).toEqual(["come", "non"]);
    expect(DRAFTING_WORDS.has("pursuant")).toBe(true);
    expect(DRAFTING_WORDS.has("breach")).toBe(false);
  });

  it("stems English lightly for search, and with the answer folds for sentences", () => {
    expect(stemEnglish("notified")).toBe(stemEnglish("notify"));
    expect(stemEnglish("submitted")).toBe(stemEnglish("submitting"));
    expect(stemEnglish("72")).toBe("72");
    expect(stemEnglishFolded("notification")).toBe(stemEnglishFolded("notify"));
    expect(stemEnglishFolded("lawfulness")).toBe(stemEnglishFolded("lawful"));
    expect(stemEnglishFolded("carrying")).toBe(stemEnglishFolded("carry"));
    expect(stemEnglishFolded("apply")).not.toBe(stemEnglishFolded("ap"));
  });

  it("stems Italian by one suffix", () => {
    expect(stemItalian("indicazione")).toBe(stemItalian("indica"));
    expect(stemItalian("prestazioni")).toBe(stemItalian("prestazione"));
    expect(stemItalian("gara")).toBe("gara");
  });

  it("folds English harder with Porter2 for crosswalks, and remembers", () => {
    const stems = createEnglishStems();
    expect(stems.stem("restoration")).toBe(stems.stem("restore"));
    expect(stems.stem("reporting")).toBe(stems.stem("report"));
    let calls = 0;
    const counted = memoized((w) => {
      calls++;
      return w.toUpperCase();
    });
    counted("a");
    counted("a");
    expect(calls).toBe(1);
    // Bounded: past its capacity it starts again instead of growing.
    const small = memoized((w) => {
      calls++;
      return w;
    }, 2);
    calls = 0;
    for (const w of ["a", "b", "c", "a"]) small(w);
    expect(calls).toBe(4);
    expect(small("c")).toBe("c");
    expect(calls).toBe(4);
  });

  it("measures similarity once: dot, cosine, Jaccard", () => {
    const a = new Float32Array([1, 0, 0]);
    const b = new Float32Array([1, 1, 0]);
    expect(dot(a, b)).toBe(1);
    expect(cosineSimilarity(a, b)).toBeCloseTo(Math.SQRT1_2, 6);
    expect(cosineSimilarity(a, new Float32Array(3))).toBe(0);
    expect(jaccard(new Set(["a", "b"]), new Set(["b", "c"]))).toBeCloseTo(1 / 3, 10);
    expect(jaccard(new Set(), new Set())).toBe(0);
  });
});
