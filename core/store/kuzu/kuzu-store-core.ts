import path from "node:path";
import { ClauseGraphError } from "../../model/errors.ts";
import type { LiveGraphSchema } from "../../model/store-records.ts";
import { ensureFreeSpace } from "../free-space.ts";
import { createLanes, type Lanes } from "./lanes.ts";
import { createLibraryVectors, type LibraryVectors } from "./library-vectors.ts";
import type { OpenLibrary } from "./open-database.ts";
import { readLiveSchema, type ReadOnlyConnection } from "./read-only-query.ts";
import { readRelConnections, type RelConnection } from "./rel-checkpoint-guard.ts";
import type { SearchDatabase } from "../search/search-database.ts";
import type { WriteContext } from "./writers/write-context.ts";

// What the parts of the Kuzu store (kuzu-store-*.ts) share: the open library, the lanes that say
// who may use its connections when, the vectors kept beside it, and the rules every write follows.
// createKuzuStore makes one and hands it to each part.

export interface LibraryState extends OpenLibrary {
  /** The relationship tables, read from the catalog on first use (see rel-checkpoint-guard.ts). */
  relConnections?: RelConnection[];
  /** Graph questions' own read-only connection (read-only-query.ts), made on first use. */
  readOnlyConnection?: Promise<ReadOnlyConnection>;
  /** The graph's schema, read once (liveSchemaOf): a router and a read ahead share the read. */
  liveSchema?: Promise<LiveGraphSchema>;
  search: SearchDatabase;
}

/** The store's settings, resolved from its options (kuzu-store.ts). */
export interface StoreSettings {
  dbPath: string;
  readOnlyOption: boolean;
  minFree: number;
  log: (message: string) => void;
  fault: (stage: string) => void;
  batchSize: number;
  exactLimit: number;
}

export interface StoreCore extends StoreSettings {
  lanes: Lanes;
  /** The open library, or null while closed; set by open and close (kuzu-store-library.ts). */
  state: LibraryState | null;
  vectors: LibraryVectors;
  /** The open library; throws while closed. */
  opened(): LibraryState;
  context(): WriteContext;
  /**
   * Every write goes through here first: a read-only library says so, and a nearly full disk
   * refuses the write before Kuzu starts it (see free-space.ts).
   */
  beforeWrite(doing: string): Promise<void>;
  /** Writes what the last write committed into the database file, while its anchors are in place. */
  checkpoint(): Promise<void>;
  /** DDL checkpoints inside Kuzu: reads are held back, and the readers' prepared statements forgotten after it. */
  ddl<T>(work: () => Promise<T>): Promise<T>;
  /** In the read lane, on the open library. */
  read<T>(work: (state: LibraryState) => Promise<T>): Promise<T>;
}

export function createStoreCore(settings: StoreSettings): StoreCore {
  const { dbPath, readOnlyOption, minFree, batchSize, fault, log, exactLimit } = settings;
  const lanes = createLanes();

  function opened(): LibraryState {
    if (!core.state) throw new ClauseGraphError("INTERNAL", "the graph store is not open", { file: dbPath });
    return core.state;
  }

  function context(): WriteContext {
    const open = opened();
    return {
      session: open.writer,
      dbPath,
      batchSize,
      fault,
      log,
      relConnections: async () => {
        open.relConnections ??= await readRelConnections(open.writer);
        return open.relConnections;
      },
    };
  }

  async function beforeWrite(doing: string): Promise<void> {
    if (opened().readOnly) {
      throw new ClauseGraphError(
        "WRITE_FAILED",
        `could not start ${doing}: the library ${dbPath} is open read-only (${readOnlyOption ? "as asked" : "its disk is read-only"}); it can be searched and read but not changed`,
        { file: dbPath },
      );
    }
    await ensureFreeSpace(path.dirname(dbPath), minFree, doing);
    await core.vectors.beforeWrite();
  }

  async function checkpoint(): Promise<void> {
    const { writer } = opened();
    await lanes.quiesce(() => writer.run("CHECKPOINT"));
  }

  async function ddl<T>(work: () => Promise<T>): Promise<T> {
    const open = opened();
    return lanes.quiesce(async () => {
      try {
        return await work();
      } finally {
        open.writer.resetPrepared();
        open.reader.resetPrepared();
      }
    });
  }

  const read = <T>(work: (state: LibraryState) => Promise<T>): Promise<T> => lanes.read(() => work(opened()));

  const core: StoreCore = {
    ...settings,
    lanes,
    state: null,
    vectors: createLibraryVectors({ dbPath, exactLimit, lanes, opened, ddl, beforeWrite, log }),
    opened,
    context,
    beforeWrite,
    checkpoint,
    ddl,
    read,
  };
  return core;
}

/** The open library's graph schema, read in the lane once; a read that failed is tried again next time. */
export function liveSchemaOf(core: Pick<StoreCore, "state" | "read">): Promise<LiveGraphSchema> {
  const open = core.state;
  // A closed library: the read fails as every read does.
  if (open === null) return core.read((state) => readLiveSchema(state.reader));
  if (open.liveSchema === undefined) {
    const reading = core.read((state) => readLiveSchema(state.reader));
    open.liveSchema = reading;
    reading.catch(() => {
      if (open.liveSchema === reading) open.liveSchema = undefined;
    });
  }
  return open.liveSchema;
}
