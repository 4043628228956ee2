import { mkdir } from "node:fs/promises";
import path from "node:path";
import kuzu from "kuzu";
import type { Connection, Database } from "kuzu";
import { ClauseGraphError } from "../errors.ts";
import type { Section } from "../structure/types.ts";
import { ftsQueryLiteral } from "./fts-query.ts";
import type { DocumentRecord, GraphStore, SearchHit, StoreStats } from "./graph-store.ts";
import type { DerivedGraph } from "./graph-types.ts";
import { toStoreError } from "./kuzu-errors.ts";
import { createKuzuSession, cypherString, type KuzuSession, type Params } from "./kuzu-session.ts";
import { migrate, readSchemaVersion, type BeforeMigrate, type Migration } from "./migrations.ts";
import { DOCUMENT_CASCADE, SECTION_FTS } from "./schema.ts";
import { dropSearchIndexes, ensureSearchIndexes } from "./search-index.ts";
import {
  documentFromNode,
  documentParams,
  referenceFromNode,
  referenceRow,
  sectionFromNode,
  sectionRow,
  termFromNode,
  termRow,
} from "./store-rows.ts";
import { validateInsert } from "./validate-insert.ts";

export interface KuzuStoreOptions {
  /** The database file (Kuzu 0.11 keeps one file plus `<file>.wal`); its folder is created. */
  dbPath: string;
  readOnly?: boolean;
  log?: (message: string) => void;
  /** Called before an existing database is migrated to a newer schema: the backup hook. */
  beforeMigrate?: BeforeMigrate;
  /** Test hook: called between the steps of insertDocument; throwing there aborts the insert. */
  faultInjector?: (stage: string) => void;
  /** Sections per UNWIND statement. */
  batchSize?: number;
  /** Kuzu's buffer pool; its default (80 % of RAM) is too greedy for a desktop app. */
  bufferPoolBytes?: number;
  /** Tests only: a different migration list. */
  migrations?: readonly Migration[];
}

export interface KuzuGraphStore extends GraphStore {
  readonly dbPath: string;
  /**
   * Builds the search index now if a write left it stale (otherwise the next search does it):
   * call after a batch of imports so the first question does not pay for the rebuild.
   */
  refreshSearchIndex(): Promise<void>;
}

const DEFAULT_BATCH = 500;
const DEFAULT_BUFFER_POOL = 512 * 1024 * 1024;
const MAX_K = 1000;

interface OpenState {
  db: Database;
  conn: Connection;
  session: KuzuSession;
  version: number;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createKuzuStore(options: KuzuStoreOptions): KuzuGraphStore {
  const dbPath = path.resolve(options.dbPath);
  const readOnly = options.readOnly ?? false;
  const log = options.log ?? (() => {});
  const fault = options.faultInjector ?? (() => {});
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  let state: OpenState | null = null;
  // Only this process can write (Kuzu locks the file), so this flag is the truth about the index.
  let indexFresh = false;

  // One connection serves everything; Kuzu runs one transaction per connection, so a search
  // arriving while an insert awaits must not slip into that insert's transaction.
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  function opened(): OpenState {
    if (!state) throw new ClauseGraphError("INTERNAL", "the graph store is not open", { file: dbPath });
    return state;
  }

  async function openDatabase(): Promise<OpenState> {
    if (!readOnly) await mkdir(path.dirname(dbPath), { recursive: true });
    const db = new kuzu.Database(dbPath, options.bufferPoolBytes ?? DEFAULT_BUFFER_POOL, true, readOnly);
    let conn: Connection | null = null;
    try {
      await db.init();
      // One thread per query: the default pool corrupts the heap under repeated FTS queries.
      conn = new kuzu.Connection(db, 1);
      await conn.init();
      const session = createKuzuSession(conn, dbPath);
      const version = await migrate(session, {
        dbPath,
        readOnly,
        ...(options.migrations ? { migrations: options.migrations } : {}),
        ...(options.beforeMigrate ? { beforeMigrate: options.beforeMigrate } : {}),
        log,
      });
      return { db, conn, session, version };
    } catch (err) {
      await conn?.close().catch(() => undefined);
      await db.close().catch(() => undefined);
      throw toStoreError(err, dbPath, "opening the database");
    }
  }

  async function invalidateIndex(session: KuzuSession): Promise<void> {
    await dropSearchIndexes(session);
    indexFresh = false;
  }

  async function refresh(session: KuzuSession): Promise<void> {
    if (indexFresh) return;
    if (readOnly) {
      indexFresh = true; // nothing can change it; a missing index surfaces on the query itself
      return;
    }
    const started = Date.now();
    const built = await ensureSearchIndexes(session);
    indexFresh = true;
    if (built > 0) log(`search index rebuilt in ${Date.now() - started} ms`);
  }

  async function findDocument(session: KuzuSession, where: string, value: string): Promise<DocumentRecord | null> {
    const rows = await session.run(`MATCH (d:Document) WHERE d.${where} = $value RETURN d LIMIT 1`, { value });
    return rows.length === 0 ? null : documentFromNode(rows[0]?.d);
  }

  async function writeDocument(
    session: KuzuSession,
    doc: DocumentRecord,
    sections: readonly Section[],
    derived?: DerivedGraph,
  ): Promise<void> {
    fault("begin");
    await session.run(
      `CREATE (:Document {id: $id, sha256: $sha256, file: $file, fileName: $fileName, title: $title,
         format: $format, language: $language, pages: $pages, bytes: $bytes, sections: $sections,
         importedAt: $importedAt})`,
      documentParams(doc),
    );
    fault("document");
    for (const [i, batch] of chunks(sections, batchSize).entries()) {
      await session.run(
        `UNWIND $rows AS r MATCH (d:Document) WHERE d.id = $documentId
         CREATE (s:Section {id: r.id, documentId: r.documentId, ordinal: r.ordinal, kind: r.kind,
           label: r.label, heading: r.heading, parentId: r.parentId, level: r.level, text: r.text,
           pageStart: r.pageStart, pageEnd: r.pageEnd, spans: r.spans, numberTerms: r.numberTerms})
           -[:IN_DOCUMENT]->(d)`,
        { rows: batch.map(sectionRow), documentId: doc.id },
      );
      fault(`sections:${i}`);
    }
    const withPath = sections.filter((s) => s.path.length > 0).map((s): Params => ({ id: s.id, path: s.path }));
    for (const batch of chunks(withPath, batchSize)) {
      await session.run(
        "UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.id SET s.path = r.path",
        { rows: batch, documentId: doc.id },
      );
    }
    fault("paths");
    // Edges between this document's sections: matching `{id: r.child}` from an UNWIND row is
    // planned as a join over the whole Section table (750 edges took 4 s at 40k sections); the
    // documentId filter narrows it to this document first (34 ms).
    const parents = sections.flatMap((s): Params[] => (s.parentId === null ? [] : [{ child: s.id, parent: s.parentId }]));
    for (const batch of chunks(parents, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (c:Section), (p:Section)
         WHERE c.documentId = $documentId AND p.documentId = $documentId AND c.id = r.child AND p.id = r.parent
         CREATE (c)-[:PART_OF]->(p)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("part-of");
    const ordered = [...sections].sort((a, b) => a.ordinal - b.ordinal);
    const pairs = ordered.slice(1).map((s, i): Params => ({ from: ordered[i]?.id ?? "", to: s.id }));
    for (const batch of chunks(pairs, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (a:Section), (b:Section)
         WHERE a.documentId = $documentId AND b.documentId = $documentId AND a.id = r.from AND b.id = r.to
         CREATE (a)-[:NEXT]->(b)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("next");
    if (derived) await writeGraph(session, doc, derived);
  }

  async function writeGraph(session: KuzuSession, doc: DocumentRecord, derived: DerivedGraph): Promise<void> {
    const references = derived.crossReferences.map(referenceRow);
    for (const batch of chunks(references, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.fromSectionId
         CREATE (s)-[:CITES]->(:Reference {id: r.id, documentId: r.documentId, fromSectionId: r.fromSectionId,
           toSectionId: r.toSectionId, toDocumentId: r.toDocumentId, raw: r.raw, label: r.label,
           pinpoint: r.pinpoint, instrument: r.instrument, spanStart: r.spanStart, spanEnd: r.spanEnd,
           resolved: r.resolved})`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("references");
    // Section ids start with their document's id: knowing the target's document lets Kuzu narrow
    // both ends before the id match, as for the structure edges.
    const resolved = references
      .filter((r) => r.toSectionId !== "")
      .map((r): Params => ({ ...r, targetDocumentId: String(r.toSectionId).split(":")[0] ?? "" }));
    for (const batch of chunks(resolved, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (a:Section), (b:Section)
         WHERE a.documentId = $documentId AND a.id = r.fromSectionId AND b.documentId = r.targetDocumentId AND b.id = r.toSectionId
         CREATE (a)-[:REFERS_TO {referenceId: r.id, raw: r.raw, pinpoint: r.pinpoint, spanStart: r.spanStart, spanEnd: r.spanEnd}]->(b)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("refers-to");
    for (const batch of chunks(derived.terms.map(termRow), batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section) WHERE s.documentId = $documentId AND s.id = r.sectionId
         CREATE (:Term {id: r.id, documentId: r.documentId, term: r.term, normalizedTerm: r.normalizedTerm,
           definition: r.definition, sectionId: r.sectionId, spanStart: r.spanStart, spanEnd: r.spanEnd})-[:DEFINED_IN]->(s)`,
        { rows: batch, documentId: doc.id },
      );
    }
    const mentions = derived.terms.flatMap((t) => t.mentionedIn.map((sectionId): Params => ({ term: t.id, section: sectionId })));
    for (const batch of chunks(mentions, batchSize)) {
      await session.run(
        `UNWIND $rows AS r MATCH (s:Section), (t:Term)
         WHERE s.documentId = $documentId AND s.id = r.section AND t.documentId = $documentId AND t.id = r.term
         CREATE (s)-[:MENTIONS]->(t)`,
        { rows: batch, documentId: doc.id },
      );
    }
    fault("terms");
  }

  async function search(session: KuzuSession, query: string, k: number): Promise<SearchHit[]> {
    const literal = ftsQueryLiteral(query);
    const top = Math.min(MAX_K, Math.floor(k));
    if (literal === "" || !Number.isFinite(top) || top < 1) return [];
    await refresh(session);
    // The query is a literal because Kuzu 0.11 fails on a $param here; ftsQueryLiteral leaves
    // only letters and spaces, and cypherString escapes anyway.
    const rows = await session.run(
      `CALL QUERY_FTS_INDEX(${cypherString(SECTION_FTS.table)}, ${cypherString(SECTION_FTS.name)}, ${cypherString(literal)}, top := ${top})
       WITH node AS s, score MATCH (s)-[:IN_DOCUMENT]->(d:Document)
       RETURN s, d, score ORDER BY score DESC, s.id`,
    );
    return rows.map((r) => ({
      section: sectionFromNode(r.s),
      document: documentFromNode(r.d),
      score: typeof r.score === "number" ? r.score : Number(r.score),
    }));
  }

  return {
    dbPath,

    open: () =>
      exclusive(async () => {
        if (state) return;
        state = await openDatabase();
        indexFresh = false;
      }),

    close: () =>
      exclusive(async () => {
        if (!state) return;
        const { conn, db } = state;
        state = null;
        try {
          await conn.close();
          await db.close();
        } catch (err) {
          throw toStoreError(err, dbPath, "closing the database");
        }
      }),

    schemaVersion: () => exclusive(async () => readSchemaVersion(opened().session)),

    findDocumentBySha: (sha256) => exclusive(() => findDocument(opened().session, "sha256", sha256)),

    getDocument: (id) => exclusive(() => findDocument(opened().session, "id", id)),

    listDocuments: () =>
      exclusive(async () => {
        const rows = await opened().session.run("MATCH (d:Document) RETURN d ORDER BY d.importedAt, d.id");
        return rows.map((r) => documentFromNode(r.d));
      }),

    insertDocument: (doc, sections, derived) =>
      exclusive(async () => {
        const { session } = opened();
        validateInsert(doc, sections);
        if (await findDocument(session, "id", doc.id)) {
          throw new ClauseGraphError("VALIDATION", `document ${doc.id} is already in the database`, { file: doc.file });
        }
        const started = Date.now();
        await invalidateIndex(session);
        try {
          await session.transaction(() => writeDocument(session, doc, sections, derived));
        } catch (err) {
          throw toStoreError(err, dbPath, `storing ${doc.fileName}`);
        }
        log(`stored ${doc.fileName}: ${sections.length} sections in ${Date.now() - started} ms`);
      }),

    deleteDocument: (id) =>
      exclusive(async () => {
        const { session } = opened();
        if (!(await findDocument(session, "id", id))) return false;
        await invalidateIndex(session);
        await session.transaction(async () => {
          for (const cypher of DOCUMENT_CASCADE) await session.run(cypher, { documentId: id });
        });
        return true;
      }),

    getSection: (id) =>
      exclusive(async () => {
        const rows = await opened().session.run("MATCH (s:Section) WHERE s.id = $id RETURN s", { id });
        return rows.length === 0 ? null : sectionFromNode(rows[0]?.s);
      }),

    getSections: (documentId) =>
      exclusive(async () => {
        const rows = await opened().session.run(
          "MATCH (s:Section) WHERE s.documentId = $documentId RETURN s ORDER BY s.ordinal",
          { documentId },
        );
        return rows.map((r) => sectionFromNode(r.s));
      }),

    getCrossReferences: (sectionIds) =>
      exclusive(async () => {
        if (sectionIds.length === 0) return [];
        const rows = await opened().session.run(
          `MATCH (r:Reference) WHERE list_contains($ids, r.fromSectionId) OR list_contains($ids, r.toSectionId)
           RETURN r ORDER BY r.fromSectionId, r.spanStart, r.id`,
          { ids: sectionIds },
        );
        return rows.map((row) => referenceFromNode(row.r));
      }),

    getTermsByNormalized: (normalizedTerms) =>
      exclusive(async () => {
        if (normalizedTerms.length === 0) return [];
        const rows = await opened().session.run(
          `MATCH (t:Term) WHERE list_contains($terms, t.normalizedTerm)
           OPTIONAL MATCH (s:Section)-[:MENTIONS]->(t)
           RETURN t, collect(s.id) AS mentionedIn ORDER BY t.documentId, t.normalizedTerm`,
          { terms: normalizedTerms },
        );
        return rows.map((row) => termFromNode(row.t, Array.isArray(row.mentionedIn) ? row.mentionedIn.filter((x): x is string => typeof x === "string").sort() : []));
      }),

    searchSections: (query, k) => exclusive(() => search(opened().session, query, k)),

    stats: () =>
      exclusive(async (): Promise<StoreStats> => {
        const { session } = opened();
        const [d] = await session.run("MATCH (d:Document) RETURN count(d) AS n");
        const [s] = await session.run("MATCH (s:Section) RETURN count(s) AS n");
        const [r] = await session.run(
          "MATCH (r:Reference) RETURN count(r) AS n, sum(CASE WHEN r.toSectionId = '' THEN 0 ELSE 1 END) AS resolved",
        );
        const [t] = await session.run("MATCH (t:Term) RETURN count(t) AS n");
        return {
          documents: Number(d?.n ?? 0),
          sections: Number(s?.n ?? 0),
          crossReferences: Number(r?.n ?? 0),
          resolvedCrossReferences: Number(r?.resolved ?? 0),
          terms: Number(t?.n ?? 0),
        };
      }),

    refreshSearchIndex: () => exclusive(() => refresh(opened().session)),
  };
}
