import { createHash } from "node:crypto";
import { cypherString, newDatabase, openConnection, SEGMENT_MAX_BYTES, type Connection, type Database } from "./driver.ts";
import { createKuzuSession, type KuzuSession } from "./session.ts";

// One full-text search segment's database file (search-database.ts): how it is opened, how a build
// writes its rows, index and record, and how that record is read back.

// Everything that is not a letter separates words when indexing: ASCII punctuation and digits as
// in Kuzu's default, but also typographic apostrophes and quotes (’ « » “ ”), dashes, § and
// emoji, which the default keeps glued to words ("dell’appalto" would be one term). Kuzu
// lower-cases the pattern before compiling it, so \p{L} is unusable: ranges are hex escapes.
// (Kuzu keeps the tokenizer macro of a database's first index creation even after DROP_FTS_INDEX;
// every segment is a new database, and the pattern is part of its recipe, so a changed pattern
// takes effect at the next start.)
export const FTS_IGNORE_PATTERN =
  "[^\\x{41}-\\x{5a}\\x{61}-\\x{7a}\\x{c0}-\\x{d6}\\x{d8}-\\x{f6}\\x{f8}-\\x{2af}\\x{300}-\\x{36f}" +
  "\\x{370}-\\x{1fff}\\x{2c00}-\\x{2dff}\\x{3040}-\\x{d7ff}\\x{f900}-\\x{fdff}\\x{fb00}-\\x{fb4f}" +
  "\\x{fe70}-\\x{fefe}\\x{ff21}-\\x{ff3a}\\x{ff41}-\\x{ff5a}\\x{10000}-\\x{1efff}\\x{20000}-\\x{3ffff}]+";

export const SEARCH_TABLE = "SectionText";
export const SEARCH_INDEX = "section_fts";
const BUILT_TABLE = "Built";
/** Rows per UNWIND statement of a build. */
const BATCH = 2000;

/** One section's searchable text, as the library stores it (numberTerms: fts-query.ts). */
export interface SearchRow {
  id: string;
  documentId: string;
  label: string;
  heading: string;
  text: string;
  numberTerms: string;
}

/** A document an index holds: the library's documents are immutable, so id and sha256 say what it indexed. */
export interface IndexedDocument {
  id: string;
  sha256: string;
}

/** How a segment is built; part of its record, so a segment built another way is rebuilt. */
const INDEX_RECIPE = `SectionText(documentId, label, heading, text, numberTerms) porter ${FTS_IGNORE_PATTERN}`;

/** What the documents of an index add up to (with how it is built): equal fingerprints, equal contents. */
export function fingerprintOf(documents: readonly IndexedDocument[]): string {
  const hash = createHash("sha256");
  hash.update(`${INDEX_RECIPE}\n`);
  for (const d of [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) hash.update(`${d.id}:${d.sha256}\n`);
  return hash.digest("hex");
}

/** A built segment, open for queries. */
export interface Segment {
  n: number;
  file: string;
  db: Database;
  conn: Connection;
  session: KuzuSession;
  documents: IndexedDocument[];
  /** Rows per document, so the share of deleted rows is known without a query. */
  sectionsOf: Map<string, number>;
  /** Each document's sha256, to tell its rows from those of a deleted document. */
  shaOf: Map<string, string>;
  sections: number;
  poolBytes: number;
}

/** Opens a segment's database with one connection; a database that fails to open is closed again. */
export async function openDatabase(file: string, poolBytes: number, asReadOnly: boolean): Promise<{ db: Database; conn: Connection; session: KuzuSession }> {
  const db = newDatabase(file, { bufferPoolBytes: poolBytes, readOnly: asReadOnly, maxBytes: SEGMENT_MAX_BYTES });
  try {
    await db.init();
    const conn = await openConnection(db);
    return { db, conn, session: createKuzuSession(conn, file) };
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}

export async function closeDatabase(open: { db: Database; conn: Connection }): Promise<void> {
  await open.conn.close().catch(() => undefined);
  await open.db.close().catch(() => undefined);
}

/** What a complete segment records about itself (its last table, written after its index). */
export interface BuiltRecord {
  fingerprint: string;
  documents: IndexedDocument[];
  sectionsOf: Map<string, number>;
  sections: number;
}

function parseCounts(value: unknown): { documents: IndexedDocument[]; sectionsOf: Map<string, number> } | null {
  if (typeof value !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) return null;
    const documents: IndexedDocument[] = [];
    const sectionsOf = new Map<string, number>();
    for (const entry of parsed) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string" || typeof entry[2] !== "number") return null;
      documents.push({ id: entry[0], sha256: entry[1] });
      sectionsOf.set(entry[0], entry[2]);
    }
    return { documents, sectionsOf };
  } catch {
    return null;
  }
}

export async function builtRecord(session: KuzuSession): Promise<BuiltRecord | null> {
  const tables = await session.run("CALL show_tables() RETURN name");
  if (!tables.some((t) => t.name === BUILT_TABLE)) return null;
  const [row] = await session.run(`MATCH (b:${BUILT_TABLE}) RETURN b.fingerprint AS f, b.documents AS d, b.sections AS s`);
  const counts = parseCounts(row?.d);
  if (typeof row?.f !== "string" || counts === null) return null;
  return { fingerprint: row.f, documents: counts.documents, sectionsOf: counts.sectionsOf, sections: Number(row.s ?? 0) };
}

/** Writes a segment file: its rows, their index and, last, its record. Throws once `closing` says the library closes. */
export async function writeSegment(
  file: string,
  poolBytes: number,
  rows: readonly SearchRow[],
  documents: readonly IndexedDocument[],
  sectionsOf: Map<string, number>,
  closing: () => boolean,
): Promise<void> {
  const open = await openDatabase(file, poolBytes, false);
  try {
    const { session } = open;
    await session.run(
      `CREATE NODE TABLE ${SEARCH_TABLE}(id STRING PRIMARY KEY, documentId STRING, label STRING, heading STRING, text STRING, numberTerms STRING)`,
    );
    for (let i = 0; i < rows.length; i += BATCH) {
      if (closing()) throw new Error("the library is closing");
      await session.run(
        `UNWIND $rows AS r CREATE (:${SEARCH_TABLE} {id: r.id, documentId: r.documentId, label: r.label, heading: r.heading, text: r.text, numberTerms: r.numberTerms})`,
        { rows: rows.slice(i, i + BATCH).map((r) => ({ ...r })) },
      );
    }
    if (rows.length > 0) {
      await session.run(
        `CALL CREATE_FTS_INDEX(${cypherString(SEARCH_TABLE)}, ${cypherString(SEARCH_INDEX)}, ['label', 'heading', 'text', 'numberTerms'], ` +
          `stemmer := 'porter', ignore_pattern := ${cypherString(FTS_IGNORE_PATTERN)})`,
      );
    }
    // Written last: a build interrupted before this line is never used (openExisting).
    await session.run(`CREATE NODE TABLE ${BUILT_TABLE}(fingerprint STRING PRIMARY KEY, documents STRING, sections INT64, poolBytes INT64, builtAt STRING)`);
    await session.run(`CREATE (:${BUILT_TABLE} {fingerprint: $f, documents: $d, sections: $s, poolBytes: $p, builtAt: $t})`, {
      f: fingerprintOf(documents),
      d: JSON.stringify(documents.map((doc) => [doc.id, doc.sha256, sectionsOf.get(doc.id) ?? 0])),
      s: rows.length,
      p: poolBytes,
      t: new Date().toISOString(),
    });
    await session.run("CHECKPOINT");
  } finally {
    await closeDatabase(open);
  }
}
