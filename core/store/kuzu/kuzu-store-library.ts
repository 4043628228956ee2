import path from "node:path";
import { toErrorInfo } from "../../model/errors.ts";
import type { GraphStore } from "../graph-store.ts";
import { liveSchemaOf, type StoreCore, type LibraryState } from "./kuzu-store-core.ts";
import type { StoreSearch } from "./kuzu-store-search.ts";
import {
  fileBytes,
  grownPool,
  libraryPoolBytes,
  POOL_REGROW,
  readMemoryRecord,
  recordFilledPool,
  writeMemoryRecord,
  writePoolBytes,
  type MemoryRecord,
} from "./memory-plan.ts";
import { ensureFreeSpace } from "../free-space.ts";
import { compactionDue, openFinishingCompaction, writeCompacted } from "./library-compaction.ts";
import type { BeforeMigrate, Migration } from "./migrations.ts";
import { closeLibrary, openLibrary } from "./open-database.ts";
import { isPoolFullError } from "./store-errors.ts";

// Opening and closing the Kuzu store's library, and its buffer pool: sized when the library opens,
// and the library reopened with a larger one when it outgrew it or a write filled it
// (memory-plan.ts).

/** What the library's opening reads from KuzuStoreOptions, when it opens. */
export interface StoreLibraryOptions {
  /** A fixed pool, never grown before a write. */
  bufferPoolBytes?: number;
  compactMinBytes?: number;
  beforeMigrate?: BeforeMigrate;
  migrations?: readonly Migration[];
}

export interface StoreLibrary {
  /**
   * A write that found the library's buffer pool too small (Kuzu rolled it back) grows the pool,
   * records it for the next start (memory-plan.ts), reopens the library with it and runs once more,
   * unless `done` says the write took effect before the failure (a checkpoint after the commit).
   */
  withPoolGrowth<T>(doing: string, done: () => Promise<boolean>, write: () => Promise<T>, writeChars?: number): Promise<T | void>;
  methods: Pick<GraphStore, "open" | "close" | "memoryUse" | "compactIfGrown" | "warmReads" | "prepareSearch">;
}

async function closeState(open: LibraryState, dbPath: string, log: (line: string) => void): Promise<void> {
  await open.search.close().catch((err: unknown) => log(`closing the search index failed: ${toErrorInfo(err).message}`));
  await (await open.readOnlyConnection)?.close().catch(() => undefined);
  await closeLibrary(open, dbPath);
}

export function createStoreLibrary(core: StoreCore, search: Pick<StoreSearch, "open">, options: StoreLibraryOptions, ceilingBytes: number): StoreLibrary {
  const { dbPath, readOnlyOption, lanes, vectors, log } = core;
  /** The library database's buffer pool as opened (memory-plan.ts). */
  let libraryPool = 0;
  /** `<library>.memory.json` as last read or written; only this process writes it. */
  let record: MemoryRecord = { libraryPoolBytes: 0, reason: "", at: "" };

  async function openAtSize(poolBytes?: number): ReturnType<typeof openLibrary> {
    record = await readMemoryRecord(dbPath);
    const recordedPool = record.libraryPoolBytes;
    // A pool grown after a failure (withPoolGrowth) outranks the caller's fixed one.
    libraryPool = Math.max(poolBytes ?? options.bufferPoolBytes ?? libraryPoolBytes(await fileBytes(dbPath), recordedPool, ceilingBytes), recordedPool);
    return openLibrary({
      dbPath,
      readOnly: readOnlyOption,
      bufferPoolBytes: libraryPool,
      log,
      ...(options.beforeMigrate ? { beforeMigrate: options.beforeMigrate } : {}),
      ...(options.migrations ? { migrations: options.migrations } : {}),
    });
  }

  /** Opens the library, first putting a complete compacted copy in its place (library-compaction.ts). */
  async function openState(poolBytes?: number): Promise<LibraryState> {
    const library = await openFinishingCompaction(dbPath, readOnlyOption, log, () => openAtSize(poolBytes));
    const searchDatabase = await search.open(library);
    return { ...library, search: searchDatabase };
  }

  /** In the write lane, reads and searches held back (lanes.ts swap): the open library closed and opened again. */
  async function swapIn(open: LibraryState, poolBytes?: number): Promise<void> {
    core.state = null;
    await closeState(open, dbPath, log);
    core.state = await openState(poolBytes);
    vectors.forget();
  }

  /** Closes the library and opens it again with a pool of `bytes`, between writes. */
  async function reopenWithPool(bytes: number): Promise<void> {
    await lanes.write(() => lanes.swap(async () => (core.state === null ? undefined : swapIn(core.state, bytes))));
  }

  /** In the write lane: the compacted copy is written while reads go on, then swapped in with reads held back. */
  async function compact(open: LibraryState, beforeBytes: number): Promise<{ beforeBytes: number; afterBytes: number }> {
    await core.beforeWrite("compacting the library");
    // The export and the fresh copy sit beside the library until the swap.
    await ensureFreeSpace(path.dirname(dbPath), core.minFree + 2 * beforeBytes, "compacting the library");
    const started = Date.now();
    await writeCompacted(open.writer, dbPath, libraryPool);
    await lanes.swap(() => swapIn(open));
    const afterBytes = await fileBytes(dbPath);
    record = { ...record, compactedBytes: afterBytes };
    await writeMemoryRecord(dbPath, record);
    log(`library compacted from ${Math.round(beforeBytes / 2 ** 20)} MB to ${Math.round(afterBytes / 2 ** 20)} MB in ${Date.now() - started} ms`);
    return { beforeBytes, afterBytes };
  }

  /**
   * Before a write: a library that grew past what its pool was sized for is reopened with the
   * pool its size calls for, while no statement runs. A write that fills the pool can leave Kuzu
   * 0.11.3's library unreadable (bench:scale: reads of its sections segfaulted afterwards), so the
   * pool is kept ahead of the library rather than grown after a failure. True when the write calls
   * for a larger pool than the library itself.
   */
  async function growIfOutgrown(doing: string, writeChars = 0): Promise<boolean> {
    if (options.bufferPoolBytes !== undefined || core.state === null || core.state.readOnly) return false;
    const own = libraryPoolBytes(await fileBytes(dbPath), record.libraryPoolBytes, ceilingBytes);
    // A large document needs room of its own in one transaction, whatever the library's size.
    const forWrite = writePoolBytes(writeChars, ceilingBytes, record.largeWrite);
    const wanted = Math.max(own, forWrite);
    if (wanted < libraryPool * POOL_REGROW) return forWrite > own;
    log(
      `the library's buffer pool of ${Math.round(libraryPool / 2 ** 20)} MB is too small for its size or for ${doing}: reopened with ${Math.round(wanted / 2 ** 20)} MB`,
    );
    await reopenWithPool(wanted);
    return forWrite > own;
  }

  async function withPoolGrowth<T>(doing: string, done: () => Promise<boolean>, write: () => Promise<T>, writeChars = 0): Promise<T | void> {
    const largeWrite = await growIfOutgrown(doing, writeChars);
    try {
      return await write();
    } catch (err) {
      if (!isPoolFullError(err) || core.state === null || core.state.readOnly) throw err;
      const larger = grownPool(libraryPool, ceilingBytes);
      if (larger === null) throw err;
      log(
        `${doing} needed more memory than the library's buffer pool of ${Math.round(libraryPool / 2 ** 20)} MB: reopened with ${Math.round(larger / 2 ** 20)} MB`,
      );
      record = recordFilledPool(record, { doing, filledBytes: libraryPool, larger, writeChars, largeWrite });
      await writeMemoryRecord(dbPath, record);
      await reopenWithPool(larger);
      if (await done()) return;
      return write();
    }
  }

  return {
    withPoolGrowth,
    methods: {
      open: () =>
        lanes.exclusive(async () => {
          if (core.state) return;
          core.state = await openState();
          vectors.forget();
        }),

      close: () =>
        lanes.write(() =>
          lanes.swap(async () => {
            if (!core.state) return;
            const open = core.state;
            await vectors.saveSnapshots(open.readOnly);
            core.state = null;
            await closeState(open, dbPath, log);
          }),
        ),

      memoryUse: () => {
        const segments = core.state?.search.describe() ?? { segments: 0, sections: 0, bytes: 0 };
        let vectorMirrorRows = 0;
        vectorMirrorRows += vectors.mirrorRows();
        return { vectorMirrorRows, searchSegments: segments.segments, searchIndexBytes: segments.bytes, poolBytes: core.state === null ? 0 : libraryPool };
      },

      compactIfGrown: () =>
        lanes.write(async () => {
          const open = core.state;
          if (open === null || open.readOnly) return null;
          const beforeBytes = await fileBytes(dbPath);
          if (!compactionDue(beforeBytes, record.compactedBytes, options.compactMinBytes)) return null;
          return compact(open, beforeBytes);
        }),

      // Its indexes and mirrors are read at open or by the first search; the wrappers warm theirs.
      warmReads: () => Promise.resolve(),
      async prepareSearch(): Promise<void> {
        if (core.state === null) return;
        // The graph's schema as well: a question is routed on it before it searches (graph-answer.ts).
        const schema = liveSchemaOf(core).catch(() => undefined);
        await Promise.all([schema, vectors.prepare()]);
      },
    },
  };
}
