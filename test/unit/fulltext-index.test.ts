import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildFullTextIndex, searchFullText, type FullTextIndex } from "../../core/store/search/fulltext-index.ts";
import { createTermStems, forEachIndexTerm, queryIndexTerms } from "../../core/store/search/fulltext-terms.ts";
import { readSegment, writeSegment, type SearchRow } from "../../core/store/search/search-segment-files.ts";
import { porterStem } from "../../core/text/index.ts";

// The engine's own full-text index: Porter's stemmer, the terms of a text, BM25 over the rows, and
// a segment file that reads back as it was written (or not at all).

describe("porterStem", () => {
  it("stems as Porter's 1980 algorithm does, step by step", () => {
    const cases: Array<[string, string]> = [
      ["caresses", "caress"],
      ["ponies", "poni"],
      ["cats", "cat"],
      ["feed", "feed"],
      ["agreed", "agre"],
      ["plastered", "plaster"],
      ["motoring", "motor"],
      ["sing", "sing"],
      ["conflated", "conflat"],
      ["hopping", "hop"],
      ["filing", "file"],
      ["failing", "fail"],
      ["happy", "happi"],
      ["sky", "sky"],
      ["relational", "relat"],
      ["conditional", "condit"],
      ["rational", "ration"],
      ["digitizer", "digit"],
      ["operator", "oper"],
      ["triplicate", "triplic"],
      ["electrical", "electr"],
      ["hopeful", "hope"],
      ["goodness", "good"],
      ["adjustment", "adjust"],
      ["adoption", "adopt"],
      ["controll", "control"],
      ["rate", "rate"],
      ["notification", "notif"],
      ["processing", "process"],
      ["yield", "yield"],
      ["città", "città"],
    ];
    for (const [word, stem] of cases) expect(porterStem(word), word).toBe(stem);
  });
});

describe("full-text terms", () => {
  it("cuts at everything but letters, lower-cases, skips stop words and stems", () => {
    const terms: string[] = [];
    forEachIndexTerm("The Controller shall notify—within 72 hours—dell’appalto § 33; appropriate", createTermStems(), (t) => terms.push(t));
    expect(terms).toEqual(["control", "notifi", "hour", "dell", "appalto"]);
  });

  it("keeps a query's distinct stems, stop words included (they match nothing)", () => {
    expect(queryIndexTerms("notify notified the breach breaches", createTermStems())).toEqual(["notifi", "the", "breach"]);
  });
});

const row = (id: string, documentId: string, text: string): SearchRow => ({ id, documentId, label: "", heading: "", text, numberTerms: "" });

async function indexOf(rows: readonly SearchRow[]): Promise<FullTextIndex> {
  return buildFullTextIndex(rows.map((r) => ({ id: r.id, documentId: r.documentId, fields: [r.label, r.heading, r.text, r.numberTerms] })));
}

describe("full-text index", () => {
  const rows = [
    row("a:1", "a", "The controller shall notify the supervisory authority of a personal data breach."),
    row("a:2", "a", "The processor shall notify the controller without undue delay."),
    row("b:1", "b", "Financial entities shall report major ICT-related incidents to the competent authority."),
    row("b:2", "b", "the of and"),
    row("b:3", "b", "Breach breach breach: a breach of security leading to the destruction of personal data."),
  ];

  it("ranks by BM25: rarer terms and more occurrences score higher, shorter rows win ties of counts", async () => {
    const index = await indexOf(rows);
    const hits = searchFullText(index, queryIndexTerms("personal data breach", createTermStems()), 10, () => true).map((h) => index.ids[h.row]);
    expect(hits).toEqual(["b:3", "a:1"]);
    expect(searchFullText(index, queryIndexTerms("notify controller", createTermStems()), 1, () => true).map((h) => index.ids[h.row])).toEqual(["a:2"]);
    expect(searchFullText(index, queryIndexTerms("the and of", createTermStems()), 10, () => true)).toEqual([]);
    expect(index.scoredRows).toBe(4);
  });

  it("skips the rows it is told to, and keeps the best `top`", async () => {
    const index = await indexOf(rows);
    const docA = index.documentIds.indexOf("a");
    const onlyB = searchFullText(index, queryIndexTerms("authority notify incidents", createTermStems()), 10, (r) => index.documentOf[r] !== docA);
    expect(onlyB.map((h) => index.ids[h.row])).toEqual(["b:1"]);
    const many = await indexOf(Array.from({ length: 300 }, (_, i) => row(`d:${i}`, "d", `audit ${"log ".repeat(1 + (i % 7))}`)));
    const top = searchFullText(many, queryIndexTerms("log", createTermStems()), 5, () => true);
    expect(top).toHaveLength(5);
    for (let i = 1; i < top.length; i++) expect((top[i - 1]?.score ?? 0) >= (top[i]?.score ?? 0)).toBe(true);
  });

  it("asks whether to keep a row only when it would enter the best so far, with the same result as asking of every row", async () => {
    const many = await indexOf(
      Array.from({ length: 2000 }, (_, i) => row(`d${i % 40}:${i}`, `d${i % 40}`, `audit ${"log ".repeat(1 + (i % 13))} trail ${i % 3 === 0 ? "breach" : ""}`)),
    );
    const terms = queryIndexTerms("audit log breach", createTermStems());
    const even = (r: number): boolean => (many.documentOf[r] ?? 0) % 2 === 0;
    let asked = 0;
    const fast = searchFullText(many, terms, 10, (r) => {
      asked++;
      return even(r);
    });
    expect(asked).toBeLessThan(2000 / 4);
    // Every row scored, then filtered, then the best ten: what the index gives.
    const all = searchFullText(many, terms, 2000, () => true)
      .filter((h) => even(h.row))
      .slice(0, 10);
    expect(fast).toEqual(all);
  });
});

describe("segment file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-fts-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const documents = [
    { id: "a", sha256: "sha-a" },
    { id: "b", sha256: "sha-b" },
  ];
  const sectionsOf = new Map([
    ["a", 2],
    ["b", 3],
  ]);

  it("reads back what it wrote, and scores the same", async () => {
    const file = path.join(dir, "1.fts");
    const written = await writeSegment(file, [...rows()], documents, sectionsOf, () => false);
    const read = await readSegment(file);
    expect(read?.record).toEqual(written.record);
    const stems = createTermStems();
    const query = "personal data breach authority";
    expect(searchFullText(read?.index ?? written.index, queryIndexTerms(query, stems), 10, () => true)).toEqual(
      searchFullText(written.index, queryIndexTerms(query, stems), 10, () => true),
    );
  });

  it("reads a damaged or foreign file as no segment", async () => {
    const file = path.join(dir, "2.fts");
    await writeSegment(file, [...rows()], documents, sectionsOf, () => false);
    const whole = await readFile(file);
    await writeFile(file, whole.subarray(0, whole.length - 40));
    expect(await readSegment(file)).toBeNull();
    await writeFile(file, "not an index at all");
    expect(await readSegment(file)).toBeNull();
  });

  it("leaves no file when the library closes during the build", async () => {
    const file = path.join(dir, "3.fts");
    await expect(writeSegment(file, [...rows()], documents, sectionsOf, () => true)).rejects.toThrow(/closing/);
    await expect(readFile(file)).rejects.toThrow();
    await expect(readFile(`${file}.tmp`)).rejects.toThrow();
  });

  function* rows(): Generator<SearchRow> {
    yield row("a:1", "a", "The controller shall notify the supervisory authority of a personal data breach.");
    yield row("a:2", "a", "The processor shall notify the controller without undue delay.");
    yield row("b:1", "b", "Financial entities shall report major incidents to the competent authority.");
    yield row("b:2", "b", "the of and");
    yield row("b:3", "b", "A breach of security leading to the destruction of personal data.");
  }
});
