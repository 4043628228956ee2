import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ensurePrivateDir, tightenDataDir } from "../../files/private-files.ts";
import { ClauseGraphError } from "../../model/errors.ts";
import { freeBytes } from "../free-space.ts";
import { fileBytes } from "../kuzu/memory-plan.ts";
import { openSegment, PARTIAL_EXTENSION, writeSegment, type IndexedDocument, type SearchRow, type Segment } from "./search-segment-files.ts";

// Building the full-text segments (search-database.ts): a refresh indexes the documents the
// segments lack (a fold or a delta), a merge combines small segments or rewrites worn ones, one
// build at a time, and a swap puts the new segments in use in place of the ones they replace.

/** A segment whose deleted rows reach this share is rewritten by the next merge. */
export const DEAD_SHARE_TO_REWRITE = 0.25;
/** What a segment file takes before its first row, with headroom. */
const SEGMENT_BASE_BYTES = 2 ** 20;
/** And per character indexed, with headroom: its terms and their postings. */
const SEGMENT_BYTES_PER_CHAR = 1;

/** What a refresh did, for the store's log and the benches. */
export interface RefreshOutcome {
  /** "fresh": nothing to do; "fold": the small segments and new documents indexed again as one; "delta": new segments of the new documents only. */
  kind: "fresh" | "fold" | "delta";
  documents: number;
  sections: number;
  ms: number;
}

/** Reads the searchable rows of these documents from the library (in the store's write lane). */
export type RowsOf = (documentIds: readonly string[]) => Promise<SearchRow[]>;

/** One library's segments and their builds (search-database.ts makes it). */
export interface SearchState {
  /** The library's documents at the last refresh (id to sha256): rows of any other are deleted ones. */
  live: Map<string, string>;
  readonly log: (message: string) => void;
  /** The library cannot be written: existing segments are opened read-only, new ones go to the temporary folder. */
  readonly readOnly: boolean;
  /** Merges aim at segments of about this many sections. */
  readonly target: number;
  /** Up to this many sections, the small segments and new documents are indexed again as one. */
  readonly fold: number;
  /** What the library keeps free on its disk (free-space.ts). */
  readonly minFree: number;
  /** Where segments are: `<library>.search/`, or a temporary folder once a read-only library builds one. */
  dir: string;
  temporary: string | null;
  segments: Segment[];
  nextN: number;
  closing: boolean;
  /** Segment builds under way: close waits for them, so no build outlives the store. */
  readonly building: Set<Promise<unknown>>;
  /**
   * One build at a time, whoever asks (a refresh in the write lane, a merge outside it): a build
   * holds its index in memory until it is written, so two would hold two.
   */
  buildTail: Promise<unknown>;
  /** Queries run one at a time; a swap waits for the one in flight, so no query reads a segment being removed. */
  serial<T>(work: () => Promise<T>): Promise<T>;
}

const mayRemove = (state: SearchState, file: string): boolean => !state.readOnly || (state.temporary !== null && file.startsWith(state.temporary));

export async function removeFiles(state: SearchState, file: string): Promise<void> {
  if (!mayRemove(state, file)) return;
  for (const f of [file, `${file}${PARTIAL_EXTENSION}`]) await rm(f, { force: true });
}

async function ensureDir(state: SearchState): Promise<void> {
  if (state.readOnly && state.temporary === null) {
    state.temporary = await mkdtemp(path.join(os.tmpdir(), "clausegraph-search-"));
    state.dir = state.temporary;
  } else if (!state.readOnly) {
    await ensurePrivateDir(state.dir);
  }
}

const segmentBytes = (chars: number): number => SEGMENT_BASE_BYTES + chars * SEGMENT_BYTES_PER_CHAR;
/** Characters a segment of these rows indexes (what its disk room is sized from). */
const charsOf = (rows: readonly SearchRow[]): number =>
  rows.reduce((sum, r) => sum + r.text.length + r.heading.length + r.label.length + r.numberTerms.length, 0);

/**
 * Rule "room before a build": a segment is not started on a disk that cannot hold it with the
 * library's margin; the build is refused as a full disk is, in words, and the segments in use
 * keep answering.
 */
async function ensureRoomFor(state: SearchState, chars: number): Promise<void> {
  const free = await freeBytes(state.dir);
  const need = segmentBytes(chars);
  if (free === null || free >= need) return;
  throw new ClauseGraphError(
    "WRITE_FAILED",
    `could not build the search index: the disk holding ${state.dir} has ${Math.floor(free / 2 ** 20)} MB free and the index needs about ${Math.ceil(need / 2 ** 20)} MB. Free some space; the library is kept, and its search index is built at the next start.`,
    { file: state.dir },
  );
}

/** Bytes the files of these segments take. */
async function bytesOf(list: readonly Segment[]): Promise<number> {
  let sum = 0;
  for (const s of list) sum += await fileBytes(s.file);
  return sum;
}

/** Builds one segment file from `rows`, one build at a time. */
function buildSegment(state: SearchState, rows: readonly SearchRow[], documents: readonly IndexedDocument[]): Promise<Segment> {
  if (state.closing) return Promise.reject(new Error("the library is closing"));
  const build = state.buildTail.then(
    () => buildSegmentNow(state, rows, documents),
    () => buildSegmentNow(state, rows, documents),
  );
  state.buildTail = build.catch(() => undefined);
  state.building.add(build);
  void build.finally(() => state.building.delete(build)).catch(() => undefined);
  return build;
}

async function buildSegmentNow(state: SearchState, rows: readonly SearchRow[], documents: readonly IndexedDocument[]): Promise<Segment> {
  if (state.closing) throw new Error("the library is closing");
  await ensureDir(state);
  const n = state.nextN++;
  const file = path.join(state.dir, `${n}.fts`);
  const sectionsOf = new Map<string, number>(documents.map((d) => [d.id, 0]));
  for (const r of rows) sectionsOf.set(r.documentId, (sectionsOf.get(r.documentId) ?? 0) + 1);
  await ensureRoomFor(state, charsOf(rows));
  try {
    const built = await writeSegment(file, rows, documents, sectionsOf, () => state.closing);
    if (!state.readOnly) await tightenDataDir(state.dir);
    return openSegment(n, file, built);
  } catch (err) {
    await removeFiles(state, file);
    throw err;
  }
}

/** Puts `added` in use in place of `replaced` (when all of them are still in use), then closes and removes those. */
async function swap(state: SearchState, added: readonly Segment[], replaced: readonly Segment[]): Promise<boolean> {
  const swapped = await state.serial(async () => {
    if (state.closing || !replaced.every((s) => state.segments.includes(s))) return false;
    state.segments = [...state.segments.filter((s) => !replaced.includes(s)), ...added].sort((a, b) => b.n - a.n);
    return true;
  });
  const gone = swapped ? replaced : added;
  for (const segment of gone) await removeFiles(state, segment.file);
  return swapped;
}

const liveSections = (state: SearchState, segment: Segment): number => {
  let n = 0;
  for (const d of segment.documents) if (state.live.get(d.id) === d.sha256) n += segment.sectionsOf.get(d.id) ?? 0;
  return n;
};
const deadShare = (state: SearchState, segment: Segment): number =>
  segment.sections === 0 ? (segment.documents.length > 0 ? 1 : 0) : 1 - liveSections(state, segment) / segment.sections;
const liveDocuments = (state: SearchState, list: readonly Segment[]): IndexedDocument[] =>
  list.flatMap((s) => s.documents.filter((d) => state.live.get(d.id) === d.sha256));

/** The documents no segment in use indexes as they are now. */
export function uncovered(state: SearchState, documents: readonly IndexedDocument[]): IndexedDocument[] {
  const covered = new Map<string, string>();
  for (const s of state.segments) for (const d of s.documents) covered.set(d.id, d.sha256);
  return documents.filter((d) => covered.get(d.id) !== d.sha256);
}

/** Groups rows into chunks of whole documents of about `target` sections. */
function chunks(
  { target }: SearchState,
  rows: readonly SearchRow[],
  documents: readonly IndexedDocument[],
): Array<{ rows: SearchRow[]; documents: IndexedDocument[] }> {
  const byDocument = new Map<string, SearchRow[]>(documents.map((d) => [d.id, []]));
  for (const r of rows) byDocument.get(r.documentId)?.push(r);
  const out: Array<{ rows: SearchRow[]; documents: IndexedDocument[] }> = [];
  let current: { rows: SearchRow[]; documents: IndexedDocument[] } = { rows: [], documents: [] };
  for (const d of documents) {
    const own = byDocument.get(d.id) ?? [];
    if (current.documents.length > 0 && current.rows.length + own.length > target) {
      out.push(current);
      current = { rows: [], documents: [] };
    }
    for (const row of own) current.rows.push(row);
    current.documents.push(d);
  }
  if (current.documents.length > 0) out.push(current);
  return out;
}

/** The next merge: the small segments, smallest first, up to the target; or a worn segment with them. */
export function mergePlan(state: SearchState): Segment[] {
  const { target } = state;
  const worn = state.segments.filter((s) => deadShare(state, s) >= DEAD_SHARE_TO_REWRITE);
  const small = state.segments
    .filter((s) => !worn.includes(s) && liveSections(state, s) < target / 2)
    .sort((a, b) => liveSections(state, a) - liveSections(state, b));
  const chosen: Segment[] = [...worn];
  let total = worn.reduce((sum, s) => sum + liveSections(state, s), 0);
  for (const s of small) {
    if (chosen.length > 0 && total + liveSections(state, s) > target) break;
    chosen.push(s);
    total += liveSections(state, s);
  }
  return chosen.length >= 2 || worn.length > 0 ? chosen : [];
}

/** SearchDatabase.refresh: indexes what the library holds and the segments do not. */
export async function refreshSegments(state: SearchState, documents: readonly IndexedDocument[], rowsOf: RowsOf): Promise<RefreshOutcome> {
  const { fold, readOnly, minFree, log } = state;
  const started = Date.now();
  state.live = new Map(documents.map((d) => [d.id, d.sha256]));
  const missing = uncovered(state, documents);
  const small = state.segments.filter((s) => s.sections < fold);
  const smallWithDead = small.filter((s) => s.documents.some((d) => state.live.get(d.id) !== d.sha256));
  if (missing.length === 0 && smallWithDead.length === 0) return { kind: "fresh", documents: 0, sections: 0, ms: 0 };
  const newRows = await rowsOf(missing.map((d) => d.id));
  const smallLive = small.reduce((sum, s) => sum + liveSections(state, s), 0);
  if (smallLive + newRows.length <= fold) {
    // Fold: the small segments' live documents and the new ones, one index again.
    const kept = liveDocuments(state, small);
    const rows = [...(await rowsOf(kept.map((d) => d.id))), ...newRows];
    const all = [...kept, ...missing];
    // Rule "short of room, replace in place": a fold normally builds beside the index it
    // replaces, so searches go on meanwhile. When the disk could not hold both and keep its
    // margin, the old one goes first: searches during the fold (seconds at this size) miss
    // these documents, rather than the disk filling up.
    let replaced = small;
    const free = small.length > 0 && !readOnly ? await freeBytes(state.dir) : null;
    if (free !== null && free < segmentBytes(charsOf(rows)) + minFree) {
      log(
        `search index: ${Math.floor(free / 2 ** 20)} MB free, so the old index of ${await bytesOf(small).then((b) => Math.ceil(b / 2 ** 20))} MB is removed before its replacement is built`,
      );
      await swap(state, [], small);
      replaced = [];
    }
    const added = all.length === 0 ? [] : [await buildSegment(state, rows, all)];
    await swap(state, added, replaced);
    return { kind: "fold", documents: all.length, sections: rows.length, ms: Date.now() - started };
  }
  // Delta: the new documents alone, merged into the others in the background.
  const added: Segment[] = [];
  try {
    for (const chunk of chunks(state, newRows, missing)) added.push(await buildSegment(state, chunk.rows, chunk.documents));
  } catch (err) {
    for (const s of added) await removeFiles(state, s.file);
    throw err;
  }
  await swap(state, added, []);
  return { kind: "delta", documents: missing.length, sections: newRows.length, ms: Date.now() - started };
}

/** SearchDatabase.mergeOnce: one merge step, false when there was nothing to merge or the segments changed meanwhile. */
export async function mergeSegmentsOnce(state: SearchState, rowsOf: RowsOf): Promise<boolean> {
  const chosen = mergePlan(state);
  if (chosen.length === 0 || state.closing) return false;
  const started = Date.now();
  const documents = liveDocuments(state, chosen);
  const rows = await rowsOf(documents.map((d) => d.id));
  // Documents deleted while the rows were read have none: they stay out of the merged segment.
  const present = new Set(rows.map((r) => r.documentId));
  const kept = documents.filter((d) => present.has(d.id) || state.live.get(d.id) === d.sha256);
  const added = kept.length === 0 ? [] : [await buildSegment(state, rows, kept)];
  const swapped = await swap(state, added, chosen);
  if (swapped) state.log(`search segments merged: ${chosen.length} into ${added.length} (${rows.length} sections) in ${Date.now() - started} ms`);
  return swapped;
}
