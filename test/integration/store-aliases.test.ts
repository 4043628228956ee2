import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CURRENT_SCHEMA_VERSION, MIGRATIONS } from "../../core/store/kuzu/migrations.ts";
import { createKuzuStore } from "../../core/store/kuzu/kuzu-store.ts";
import { makeDocument, makeSections, tempDir } from "../helpers/store-fixtures.ts";

// Document aliases in the Kuzu store: schema v5 adds them, fills them for the documents a v4
// library already holds (from their titles), and keeps the user's edits apart from the registry's.

describe("store: document aliases", () => {
  let cleanup = (): void => {};
  afterEach(() => cleanup());

  it("migrates a v4 library, naming the documents it holds from their titles", async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dbPath = path.join(tmp.dir, "graph.kuzu");
    const old = createKuzuStore({ dbPath, migrations: MIGRATIONS.filter((m) => m.version <= 4) });
    await old.open();
    const dora = makeDocument("dora", 2, {
      title: "REGULATION (EU) 2022/2554 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL on digital operational resilience",
    });
    await old.insertDocument(dora, makeSections("dora", [{ label: "Article 1", text: "Subject matter." }]));
    await old.insertDocument(makeDocument("other", 2, { title: "Minutes of the board" }), makeSections("other", [{ label: "Article 1", text: "Minutes." }]));
    expect(await old.schemaVersion()).toBe(4);
    await old.close();

    const store = createKuzuStore({ dbPath });
    await store.open();
    try {
      expect(await store.schemaVersion()).toBe(CURRENT_SCHEMA_VERSION);
      const docs = await store.listDocuments();
      expect(docs.find((d) => d.id === "dora")?.aliases).toEqual(["DORA", "Regulation (EU) 2022/2554"]);
      expect(docs.find((d) => d.id === "other")?.aliases).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("stores the registry's aliases at insert and the user's edits apart, durably", async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dbPath = path.join(tmp.dir, "graph.kuzu");
    let store = createKuzuStore({ dbPath });
    await store.open();
    await store.insertDocument(
      makeDocument("gdpr", 2, { aliases: ["GDPR", "Regulation (EU) 2016/679"] }),
      makeSections("gdpr", [{ label: "Article 33", text: "Notification." }]),
    );
    const edited = await store.setUserAliases("gdpr", { userAliases: ["privacy regulation"], hiddenAliases: ["GDPR"] });
    expect(edited).toMatchObject({ aliases: ["GDPR", "Regulation (EU) 2016/679"], userAliases: ["privacy regulation"], hiddenAliases: ["GDPR"] });
    await expect(store.setUserAliases("missing", { userAliases: [], hiddenAliases: [] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await store.close();
    store = createKuzuStore({ dbPath });
    await store.open();
    try {
      expect(await store.getDocument("gdpr")).toMatchObject({ userAliases: ["privacy regulation"], hiddenAliases: ["GDPR"] });
      // Emptying the lists works too (Kuzu types a bare [] parameter as STRING: the store casts it).
      const emptied = await store.setUserAliases("gdpr", { userAliases: [], hiddenAliases: [] });
      expect(emptied.userAliases ?? []).toEqual([]);
      expect(emptied.hiddenAliases ?? []).toEqual([]);
      expect(emptied.aliases).toEqual(["GDPR", "Regulation (EU) 2016/679"]);
    } finally {
      await store.close();
    }
  });
});
