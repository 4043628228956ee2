import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import kuzu, { type QueryResult } from "kuzu";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKuzuStore, type KuzuGraphStore } from "../../core/store/kuzu/kuzu-store.ts";
import { buildFullTextIndex, searchFullText } from "../../core/store/search/fulltext-index.ts";
import { createTermStems, queryIndexTerms } from "../../core/store/search/fulltext-terms.ts";
import { ftsQueryLiteral, numberTerms } from "../../core/store/search/fts-query.ts";
import { searchDirectory } from "../../core/store/search/search-database.ts";
import { fillerSpecs, makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Full-text search is an index of the engine's own (core/store/search/), in segments beside the
// library, rebuilt after writes and swapped in. The first test holds it to the scores of Kuzu's
// FTS index, which it replaced (same terms, stop words, stemmer and BM25), on the same rows. The
// others show the store's use of it: searches answer while a new index is built, a build a crash
// interrupted and a segment of the format before are never used, and an index of other
// documents is rebuilt.

// What Kuzu's index was built with: everything but letters separates words.
const KUZU_IGNORE_PATTERN =
  "[^\\x{41}-\\x{5a}\\x{61}-\\x{7a}\\x{c0}-\\x{d6}\\x{d8}-\\x{f6}\\x{f8}-\\x{2af}\\x{300}-\\x{36f}" +
  "\\x{370}-\\x{1fff}\\x{2c00}-\\x{2dff}\\x{3040}-\\x{d7ff}\\x{f900}-\\x{fdff}\\x{fb00}-\\x{fb4f}" +
  "\\x{fe70}-\\x{fefe}\\x{ff21}-\\x{ff3a}\\x{ff41}-\\x{ff5a}\\x{10000}-\\x{1efff}\\x{20000}-\\x{3ffff}]+";

let tmp: ReturnType<typeof tempDir>;
let stores: KuzuGraphStore[] = [];

beforeEach(() => {
  tmp = tempDir("cg-search-db-");
});
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
  tmp.cleanup();
});

async function openStore(log?: (line: string) => void): Promise<KuzuGraphStore> {
  const store = createKuzuStore({ dbPath: path.join(tmp.dir, "graph.kuzu"), minFreeBytes: 0, ...(log ? { log } : {}) });
  stores.push(store);
  await store.open();
  return store;
}

async function drain(result: QueryResult | QueryResult[]): Promise<void> {
  for (const r of Array.isArray(result) ? result : [result]) {
    await r.getAll();
    r.close();
  }
}

describe("search database", () => {
  it("scores every row as Kuzu's FTS index did, on the same rows and queries", async () => {
    // Regulation-like rows: stop words, inflections, numbers, accents, apostrophes, a row of stop words only.
    const words = (
      "the controller shall notify personal data breach supervisory authority within hours after becoming aware " +
      "processor processing processed records activities security incident incidents reporting reported financial " +
      "entities entity provider providers contractual arrangements termination rights appropriate necessary available " +
      "dell’appalto l’operatore economico offerta stazione appaltante città libertà über naïve café"
    ).split(" ");
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const rows = Array.from({ length: 400 }, (_, i) => {
      const text = Array.from({ length: 5 + next(40) }, () => words[next(words.length)] ?? "").join(next(5) === 0 ? ", " : " ");
      return {
        id: `s${String(i).padStart(3, "0")}`,
        documentId: `d${i % 7}`,
        label: `Article ${i % 50}`,
        heading: words[next(words.length)] ?? "",
        text,
        numberTerms: numberTerms(`Article ${i % 50} ${next(100)}`),
      };
    });
    rows.push({ id: "s999", documentId: "d0", label: "", heading: "", text: "the and of which", numberTerms: "" });

    const db = new kuzu.Database(path.join(tmp.dir, "bare.kuzu"), 64 * 2 ** 20, true, false, 0, false);
    await db.init();
    const conn = new kuzu.Connection(db, 1);
    await conn.init();
    await drain(
      await conn.query("CREATE NODE TABLE S(id STRING PRIMARY KEY, documentId STRING, label STRING, heading STRING, text STRING, numberTerms STRING)"),
    );
    await drain(
      await conn.execute(
        await conn.prepare(
          "UNWIND $rows AS r CREATE (:S {id: r.id, documentId: r.documentId, label: r.label, heading: r.heading, text: r.text, numberTerms: r.numberTerms})",
        ),
        {
          rows,
        },
      ),
    );
    await drain(
      await conn.query(
        `CALL CREATE_FTS_INDEX('S', 'fts', ['label', 'heading', 'text', 'numberTerms'], stemmer := 'porter', ignore_pattern := '${KUZU_IGNORE_PATTERN.replaceAll("\\", "\\\\")}')`,
      ),
    );

    const index = await buildFullTextIndex(rows.map((r) => ({ id: r.id, documentId: r.documentId, fields: [r.label, r.heading, r.text, r.numberTerms] })));
    const stems = createTermStems();
    const queries = [
      "personal data breach notify supervisory authority",
      "how long does the controller have after becoming aware",
      "financial entities contractual arrangements termination",
      "incident reporting processors",
      "appropriate necessary available",
      "article 12",
      "l'operatore economico dell'appalto offerta",
      "città libertà café",
      "records of processing activities security",
      "the and of",
    ];
    let compared = 0;
    for (const query of queries) {
      const literal = ftsQueryLiteral(query);
      const result = await conn.query(`CALL QUERY_FTS_INDEX('S', 'fts', '${literal}') RETURN node.id AS id, score ORDER BY score DESC, id`);
      const expected = (await (Array.isArray(result) ? result[0] : result)?.getAll()) ?? [];
      const ours = searchFullText(index, queryIndexTerms(literal, stems), rows.length, () => true)
        .map((h) => ({ id: index.ids[h.row] ?? "", score: h.score }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      expect(
        ours.map((h) => h.id),
        query,
      ).toEqual(expected.map((r) => r.id));
      for (const [i, hit] of ours.entries()) expect(hit.score).toBeCloseTo(Number(expected[i]?.score), 9);
      compared += ours.length;
    }
    await conn.close();
    await db.close();
    expect(compared).toBeGreaterThan(500);
  });

  it("searches keep answering while a new index is built after a batch, and find the new documents once it is in", async () => {
    const store = await openStore();
    const keep = makeSections("keep", [{ label: "Article 5", text: "Personal data shall be processed lawfully." }, ...fillerSpecs(40, "lawfully")]);
    await store.insertDocument(makeDocument("keep", keep.length), keep);
    expect((await store.searchSections("personal data lawfully", 3))[0]?.section.id).toBe("keep:s1");
    let searches = 0;
    let stop = false;
    await store.batchWrites(async () => {
      const added = makeSections("added", [{ label: "Article 9", text: "The operator reports major incidents." }, ...fillerSpecs(40, "incidents")]);
      await store.insertDocument(makeDocument("added", added.length), added);
      const loop = (async () => {
        while (!stop) {
          const hits = await store.searchSections("personal data lawfully", 3);
          expect(hits[0]?.section.id).toBe("keep:s1");
          searches++;
        }
      })();
      await store.refreshSearchIndex();
      stop = true;
      await loop;
    });
    expect(searches).toBeGreaterThan(0);
    expect((await store.searchSections("major incidents", 3))[0]?.section.id).toBe("added:s1");
    expect((await readdir(searchDirectory(path.join(tmp.dir, "graph.kuzu")))).filter((f) => f.endsWith(".fts"))).toHaveLength(1);
  });

  it("never uses a build a crash interrupted, nor an index of other documents", async () => {
    const dbPath = path.join(tmp.dir, "graph.kuzu");
    const first = await openStore();
    const sections = makeSections("doc", [{ label: "Article 1", text: "Records of processing activities." }]);
    await first.insertDocument(makeDocument("doc", sections.length), sections);
    expect((await first.searchSections("processing records", 3)).map((h) => h.section.id)).toEqual(["doc:s1"]);
    await first.close();
    stores = [];

    // A newer build the process died in (its partial file), a segment of the Kuzu format that
    // came before, a damaged segment, and stray files.
    const dir = searchDirectory(dbPath);
    await writeFile(path.join(dir, "99.fts.tmp"), "partial");
    await writeFile(path.join(dir, "98.fts"), "CLAUSEGRAPH-FTS 1\n\u0000\u0000");
    const legacy = new kuzu.Database(path.join(dir, "97.kuzu"));
    await legacy.init();
    await legacy.close();
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "notes.txt"), "not an index");

    const lines: string[] = [];
    const second = await openStore((line) => lines.push(line));
    expect((await second.searchSections("processing records", 3)).map((h) => h.section.id)).toEqual(["doc:s1"]);
    expect(lines.filter((l) => l.startsWith("search index rebuilt"))).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(["1.fts", "notes.txt"]);

    // The library changed behind the index's back (another build of the app, a restore): rebuilt.
    await second.close();
    stores = [];
    const raw = new kuzu.Database(dbPath);
    await raw.init();
    const rawConn = new kuzu.Connection(raw, 1);
    await rawConn.init();
    await drain(await rawConn.query("MATCH (d:Document) SET d.sha256 = 'changed'"));
    await rawConn.close();
    await raw.close();
    const third = await openStore((line) => lines.push(line));
    expect((await third.searchSections("processing records", 3)).map((h) => h.section.id)).toEqual(["doc:s1"]);
    expect(lines.filter((l) => l.startsWith("search index rebuilt"))).toHaveLength(1);
  });
});
