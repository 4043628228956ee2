import { createHash } from "node:crypto";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import kuzu from "kuzu";
import { createEngine, databasePath, documentIdFromSha } from "../../core/engine.ts";
import { hasVectorIndex, indexNames } from "../../core/store/kuzu/readers/metadata.ts";
import { TRIPLET_VECTORS } from "../../core/store/kuzu/schema.ts";
import { createKuzuSession } from "../../core/store/kuzu/session.ts";

// A library damaged the way Kuzu 0.11.3 damaged them before the fix (core/store/kuzu/hnsw-commit-guard.ts):
// one transaction wrote a document's graph and its vectors, and the commit kept the references,
// entities, triplets and vectors while dropping the Document and Section rows.

export const A_TEXT =
  "Article 1 Scope of the second regulation\n1. The controller shall keep records for five years.\nArticle 2 Obligations\n1. The processor shall keep a register.\n";
export const B_TEXT =
  "Article 1 Scope of the benign regulation\n1. The controller shall notify the supervisory authority within 72 hours.\n2. See Article 2 for details.\nArticle 2 Obligations\n1. The processor shall report every incident to the authority; see Article 1.\n";

const vector = (x: number): string => `[${Array.from({ length: 100 }, (_, i) => (i === x ? "1.0" : "0.0")).join(",")}]`;

/** Writes document B the way the store did before the fix, on the closed library; returns B's id. */
export async function damageLibrary(dataDir: string, bFile: string): Promise<{ lost: boolean; id: string }> {
  const sha = createHash("sha256").update(B_TEXT).digest("hex");
  const id = documentIdFromSha(sha);
  const db = new kuzu.Database(databasePath(dataDir), 64 * 1024 * 1024, true, false, 0, false);
  await db.init();
  const conn = new kuzu.Connection(db, 1);
  await conn.init();
  const s = createKuzuSession(conn, dataDir);
  const section = `${id}:preamble`;
  try {
    // Libraries of that time indexed both vector tables; the bug needs both (a small library's
    // triplet vectors have no index today: kuzu-store.ts indexWanted).
    if (!hasVectorIndex(await indexNames(s), TRIPLET_VECTORS)) {
      await s.run(`CALL CREATE_VECTOR_INDEX('${TRIPLET_VECTORS.table}', '${TRIPLET_VECTORS.index}', 'vector', metric := 'cosine')`);
    }
    await s.transaction(async () => {
      await s.run(
        `CREATE (:Document {id: $id, sha256: $sha, file: $file, fileName: 'B.txt', title: 'Benign', format: 'txt', language: 'en',
           pages: 1, bytes: 10, sections: 1, importedAt: '2026-01-01T00:00:00.000Z'})`,
        { id, sha, file: bFile },
      );
      await s.run(
        `MATCH (d:Document) WHERE d.id = $id CREATE (s:Section {id: $section, documentId: $id, ordinal: 0, kind: 'preamble', label: 'Preamble',
           heading: '', level: 0, text: 'benign', pageStart: 1, pageEnd: 1, spans: '[]', numberTerms: ''})-[:IN_DOCUMENT]->(d)`,
        { id, section },
      );
      await s.run(
        `MATCH (s:Section) WHERE s.id = $section CREATE (s)-[:CITES]->(:Reference {id: $ref, documentId: $id, fromSectionId: $section,
           toSectionId: '', toDocumentId: $id, raw: 'Article 2', label: 'Article 2', pinpoint: '', instrument: '', spanStart: 0, spanEnd: 9, resolved: false})`,
        { id, section, ref: `${id}-r1` },
      );
      await s.run(
        "CREATE (:Entity {id: $e1, documentId: $id, key: 'controller', name: 'controller', type: 'actor'}), (:Entity {id: $e2, documentId: $id, key: 'authority', name: 'authority', type: 'object'})",
        {
          id,
          e1: `${id}:e:controller`,
          e2: `${id}:e:authority`,
        },
      );
      await s.run(
        `MATCH (s:Section), (a:Entity), (b:Entity) WHERE s.id = $section AND a.id = $e1 AND b.id = $e2
         CREATE (t:Triplet {id: $t, documentId: $id, sectionId: $section, subjectId: $e1, subject: 'controller', predicate: 'notify',
           objectId: $e2, object: 'authority', modality: 'shall', deadline: '72 hours', source: 'rule', confidence: 1.0, spanStart: 0, spanEnd: 5, evidence: 'x'})-[:STATED_IN]->(s),
           (t)-[:HAS_SUBJECT]->(a), (t)-[:HAS_OBJECT]->(b)`,
        { id, section, e1: `${id}:e:controller`, e2: `${id}:e:authority`, t: `${section}#t0` },
      );
      await s.run(`CREATE (:SectionEmbedding {id: $section, documentId: $id, sectionId: $section, vector: CAST(${vector(1)} AS FLOAT[100])})`, { id, section });
      await s.run(`CREATE (:TripletEmbedding {id: $t, documentId: $id, sectionId: $section, vector: CAST(${vector(2)} AS FLOAT[100])})`, {
        id,
        section,
        t: `${section}#t0`,
      });
    });
    await s.run("CHECKPOINT");
    const [row] = await s.run("MATCH (d:Document) WHERE d.id = $id RETURN count(d) AS n", { id });
    return { lost: Number(row?.n ?? 0) === 0, id };
  } finally {
    await conn.close();
    await db.close();
  }
}

export interface DamagedLibrary {
  dataDir: string;
  a: string;
  b: string;
  /** Whether B was lost (false once Kuzu no longer has the bug). */
  lost: boolean;
  lostId: string;
}

/** A.txt imported normally, then B.txt written the old way and lost; B's copy kept as old libraries kept it. */
export async function makeDamagedLibrary(dir: string): Promise<DamagedLibrary> {
  const dataDir = path.join(dir, "L");
  const a = path.join(dir, "A.txt");
  const b = path.join(dir, "B.txt");
  await writeFile(a, A_TEXT);
  await writeFile(b, B_TEXT);
  const engine = await createEngine({ dataDir, modelRoot: path.join(dir, "models") });
  try {
    const [result] = await engine.importFiles([a]);
    if (result?.status !== "ok") throw new Error(`A.txt did not import: ${JSON.stringify(result?.error)}`);
  } finally {
    await engine.close();
  }
  const damage = await damageLibrary(dataDir, b);
  await mkdir(path.join(dataDir, "sources"), { recursive: true });
  await copyFile(b, path.join(dataDir, "sources", `${damage.id}.txt`));
  return { dataDir, a, b, lost: damage.lost, lostId: damage.id };
}
