import type { ScoredId } from "../../model/graph-records.ts";
import { cypherString } from "./driver.ts";
import { fileBytes, grownPool, searchQueryPoolBytes } from "./memory-plan.ts";
import { closeDatabase, openDatabase, SEARCH_INDEX, SEARCH_TABLE, type BuiltRecord, type Segment } from "./search-segment-files.ts";
import { isPoolFullError } from "./store-errors.ts";

// A built full-text segment open for queries (search-database.ts): its buffer pool sized from its
// file, and grown when opening it or a query finds it too small.

/** The bounds of a segment's pool (memory-plan.ts), and where its growth is told. */
export interface SegmentPools {
  /** Largest pool any segment may use. */
  ceiling: number;
  /** Smallest pool a segment starts from. */
  floor: number;
  log: (message: string) => void;
}

export interface SegmentQueryState extends SegmentPools {
  /** The library's documents at the last refresh (id to sha256): rows of any other are deleted ones. */
  readonly live: ReadonlyMap<string, string>;
}

/** Opens a built segment for queries, with a pool sized from its file. */
export async function openSegment({ ceiling, floor }: SegmentPools, n: number, file: string, record: BuiltRecord): Promise<Segment> {
  let poolBytes = searchQueryPoolBytes(await fileBytes(file), ceiling, floor);
  let open: Awaited<ReturnType<typeof openDatabase>>;
  for (;;) {
    try {
      open = await openDatabase(file, poolBytes, true);
      break;
    } catch (err) {
      // Opening reads the index's catalog into the pool: a pool too small for that grows too.
      const larger = isPoolFullError(err) ? grownPool(poolBytes, ceiling) : null;
      if (larger === null) throw err;
      poolBytes = larger;
    }
  }
  const shaOf = new Map(record.documents.map((d) => [d.id, d.sha256]));
  return { n, file, ...open, documents: record.documents, sectionsOf: record.sectionsOf, shaOf, sections: record.sections, poolBytes };
}

async function queryOne(state: SegmentQueryState, segment: Segment, literal: string, top: number): Promise<ScoredId[]> {
  if (segment.sections === 0) return [];
  const rows = await segment.session.run(
    `CALL QUERY_FTS_INDEX(${cypherString(SEARCH_TABLE)}, ${cypherString(SEARCH_INDEX)}, ${cypherString(literal)}, top := ${top})
     RETURN node.id AS id, node.documentId AS doc, score ORDER BY score DESC, id`,
  );
  return rows.flatMap((r) => {
    const doc = String(r.doc);
    if (state.live.get(doc) === undefined || state.live.get(doc) !== segment.shaOf.get(doc)) return [];
    return [{ id: String(r.id), score: typeof r.score === "number" ? r.score : Number(r.score) }];
  });
}

/** A query that found the segment's pool too small reopens it with a larger one, once. */
export async function queryGrowing(state: SegmentQueryState, segment: Segment, literal: string, top: number): Promise<ScoredId[]> {
  const { ceiling, log } = state;
  try {
    return await queryOne(state, segment, literal, top);
  } catch (err) {
    const larger = isPoolFullError(err) ? grownPool(segment.poolBytes, ceiling) : null;
    if (larger === null) throw err;
    log(
      `search segment ${segment.n}: its pool of ${Math.round(segment.poolBytes / 2 ** 20)} MB was too small for a query; reopened with ${Math.round(larger / 2 ** 20)} MB`,
    );
    await closeDatabase(segment);
    Object.assign(segment, await openDatabase(segment.file, larger, true), { poolBytes: larger });
    return queryOne(state, segment, literal, top);
  }
}
