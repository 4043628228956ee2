import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REFUSAL } from "../../core/model/answer-types.ts";
import { createEngine } from "../../core/engine.ts";
import type { Engine } from "../../core/model/engine-types.ts";
import { planRebuild } from "../../core/store/library-rebuild.ts";
import { readSourceRecord } from "../../core/store/source-record.ts";
import { parseJson, runCli } from "../helpers/cli.ts";
import { B_TEXT, makeDamagedLibrary } from "../helpers/damaged-library.ts";
import { tempDir } from "../helpers/store-fixtures.ts";

// Instrument names end to end: a document imported as "REGULATION (EU) 2022/2554 …" answers to
// "DORA" (the official text never says it), a question naming an instrument that is not imported
// is refused with that name, a question naming an imported one is answered from it alone, and the
// user's own names are stored, used, and carried through a rebuild.

const DORA = `REGULATION (EU) 2022/2554 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL on digital operational resilience for the financial sector

Article 19
Reporting of major ICT-related incidents
1. Financial entities shall report major ICT-related incidents to the relevant competent authority.
4. Financial entities shall submit the initial notification of an incident within 4 hours from its classification as major.

Article 28
General principles
Financial entities shall manage ICT third-party risk as an integral component of ICT risk within their ICT risk management framework.
`;

const GDPR = `REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL on the protection of natural persons with regard to the processing of personal data and on the free movement of such data

Article 33
Notification of a personal data breach to the supervisory authority
1. In the case of a personal data breach, the controller shall without undue delay and, where feasible, not later than 72 hours after having become aware of it, notify the personal data breach to the supervisory authority.

Article 5
Principles relating to processing of personal data
Personal data shall be processed lawfully, fairly and in a transparent manner in relation to the data subject.
`;

describe("engine: instrument names and aliases", () => {
  let dir: string;
  let data: string;
  let engine: Engine;
  let doraId = "";
  let gdprId = "";

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-aliases-"));
    data = path.join(dir, "data");
    await writeFile(path.join(dir, "dora.txt"), DORA);
    await writeFile(path.join(dir, "gdpr.txt"), GDPR);
    engine = await createEngine({ dataDir: data, embedder: null, llm: null });
    const results = await engine.importFiles([path.join(dir, "dora.txt"), path.join(dir, "gdpr.txt")]);
    expect(results.map((r) => r.status)).toEqual(["ok", "ok"]);
    doraId = results[0]?.documentId ?? "";
    gdprId = results[1]?.documentId ?? "";
  });

  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("stores the registry's names with each imported document", async () => {
    const docs = await engine.listDocuments();
    expect(docs.find((d) => d.id === doraId)?.aliases).toEqual(["DORA", "Regulation (EU) 2022/2554"]);
    expect(docs.find((d) => d.id === gdprId)?.aliases).toEqual(["GDPR", "Regulation (EU) 2016/679"]);
  });

  it("answers a question “under DORA” (it used to be refused: “None of the imported documents mentions ‘DORA’”)", async () => {
    const result = await engine.ask("Under DORA, within what time must a financial entity submit the initial notification of a major incident?");
    expect(result.refusalReason).toBeUndefined();
    expect(result.answer).not.toBe(REFUSAL);
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.citations.every((c) => c.documentId === doraId)).toBe(true);
  });

  it("keeps retrieval to the document the question names", async () => {
    // "incident", "report" and "notification" are DORA's words; the question names the GDPR.
    const result = await engine.ask("Under the GDPR, within how many hours must an incident be reported in a notification?");
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.citations.every((c) => c.documentId === gdprId)).toBe(true);
  });

  it("answers a question naming two instruments per instrument, each part with its own lead", async () => {
    const result = await engine.ask("How quickly must an incident or a breach be notified to the authority under DORA and under the GDPR?");
    const shown = result.sentences.filter((s) => s.more !== true);
    const documentOf = (key: string | undefined): string | undefined => result.citations.find((c) => c.key === key)?.documentId;
    expect(shown.map((s) => documentOf(s.citationKeys[0]))).toEqual(expect.arrayContaining([doraId, gdprId]));
    // In the order the question names them: DORA's part first.
    expect(documentOf(shown[0]?.citationKeys[0])).toBe(doraId);
    expect(result.answer).toMatch(/4 hours/);
    expect(result.answer).toMatch(/72 hours/);
  });

  it("a search naming an imported instrument searches that document", async () => {
    const { results } = await engine.search("GDPR incident notification", { k: 10 });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.documentId === gdprId)).toBe(true);
  });

  it("refuses a question naming a known instrument that is not imported, saying which", async () => {
    const result = await engine.ask("Which crypto-asset service providers must be authorised under MiCA?");
    expect(result.answer).toBe(REFUSAL);
    expect(result.refusalReason).toBe("No imported document is MiCA (Regulation (EU) 2023/1114); import it to ask about it.");
    // Nothing was retrieved for it: no unrelated graph beside the refusal.
    expect(result.subgraph.nodes).toEqual([]);
    const byNumber = await engine.ask("What does Directive (EU) 2022/2555 require of essential entities?");
    expect(byNumber.refusalReason).toMatch(/^No imported document is NIS2 \(Directive \(EU\) 2022\/2555\)/);
  });

  it("the user's names: set, used by questions, removed names hidden, kept beside the copy and through a rebuild plan", async () => {
    // Any name of the instrument keeps the document DORA: the identifier alone still does.
    const renamed = await engine.setDocumentAliases(doraId, ["Regulation (EU) 2022/2554"]);
    expect(renamed.hiddenAliases).toEqual(["DORA"]);
    expect((await engine.ask("Under DORA, who must report major incidents?")).refusalReason).toBeUndefined();
    const updated = await engine.setDocumentAliases(doraId, ["resilience rulebook"]);
    expect(updated.userAliases).toEqual(["resilience rulebook"]);
    expect(updated.hiddenAliases).toEqual(["DORA", "Regulation (EU) 2022/2554"]);
    // The user removed both of DORA's names: this library no longer has a document that is DORA.
    expect((await engine.ask("Under DORA, who must report major incidents?")).refusalReason).toMatch(/^No imported document is DORA/);
    const byUserName = await engine.ask("Under the resilience rulebook, to whom are major ICT-related incidents reported?");
    expect(byUserName.citations.every((c) => c.documentId === doraId)).toBe(true);

    expect(await readSourceRecord(data, doraId)).toMatchObject({ userAliases: ["resilience rulebook"], hiddenAliases: ["DORA", "Regulation (EU) 2022/2554"] });
    const docs = await engine.listDocuments();
    const plan = await planRebuild(data, docs, { documents: docs.length, damaged: [] });
    expect(plan.items.find((i) => i.documentId === doraId)?.origin).toMatchObject({
      userAliases: ["resilience rulebook"],
      hiddenAliases: ["DORA", "Regulation (EU) 2022/2554"],
    });

    await expect(engine.setDocumentAliases("no-such-document", ["x"])).rejects.toMatchObject({ code: "NOT_FOUND" });
    const restored = await engine.setDocumentAliases(doraId, ["DORA", "Regulation (EU) 2022/2554"]);
    expect(restored.userAliases ?? []).toEqual([]);
    expect(restored.hiddenAliases ?? []).toEqual([]);
  });

  it("the CLI lists, adds and removes a document's names", async () => {
    await engine.close();
    try {
      const add = await runCli(["aliases", doraId, "--add", "the DORA text", "--remove", "Regulation (EU) 2022/2554", "--db", data, "--json"]);
      expect(add.code).toBe(0);
      expect(parseJson<{ aliases: string[] }>(add).aliases).toEqual(["DORA", "the DORA text"]);
      const set = await runCli(["aliases", "dora.txt", "--set", "DORA, Regulation (EU) 2022/2554", "--db", data]);
      expect(set.code).toBe(0);
      expect(set.stdout).toMatch(/aliases: DORA; Regulation \(EU\) 2022\/2554/);
      const missing = await runCli(["aliases", "nothing-here", "--db", data]);
      expect(missing.code).toBe(1);
    } finally {
      engine = await createEngine({ dataDir: data, embedder: null, llm: null });
    }
  });
});

describe("engine: a library rebuild keeps the user's names", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir("cg-aliases-repair-");
  });
  afterEach(() => tmp.cleanup());

  it("re-imports every document with the names its user gave it, listed or lost", async () => {
    const { dataDir, lostId, lost } = await makeDamagedLibrary(tmp.dir);
    expect(lost).toBe(true);
    // B was lost with its row: its names survive in the record beside its copy.
    const bSha = createHash("sha256").update(B_TEXT).digest("hex");
    await writeFile(
      path.join(dataDir, "sources", `${lostId}.record.json`),
      `${JSON.stringify({ id: lostId, sha256: bSha, file: path.join(tmp.dir, "B.txt"), fileName: "B.txt", importedAt: "2025-01-02T00:00:00.000Z", userAliases: ["benign rulebook"] })}\n`,
    );
    const engine = await createEngine({ dataDir, modelRoot: path.join(tmp.dir, "models"), embedder: null, llm: null });
    try {
      const [a] = await engine.listDocuments();
      await engine.setDocumentAliases(a?.id ?? "", ["records rulebook"]);
      const repair = await engine.repairLibrary();
      expect(repair.rebuilt).toBe(true);
      const docs = await engine.listDocuments();
      expect(docs.find((d) => d.id === a?.id)?.userAliases).toEqual(["records rulebook"]);
      expect(docs.find((d) => d.id === lostId)?.userAliases).toEqual(["benign rulebook"]);
    } finally {
      await engine.close();
    }
  });
});
