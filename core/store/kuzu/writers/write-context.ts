import type { RelConnection } from "../rel-checkpoint-guard.ts";
import type { KuzuSession } from "../session.ts";

/** What every writer gets: the writer's session and the store's write settings. */
export interface WriteContext {
  session: KuzuSession;
  dbPath: string;
  /** Rows per UNWIND statement. */
  batchSize: number;
  /** Test hook between the steps of a write (KuzuStoreOptions.faultInjector); throwing aborts it. */
  fault: (stage: string) => void;
  log: (message: string) => void;
  /** The relationship tables (rel-checkpoint-guard.ts), read from the catalog once. */
  relConnections(): Promise<RelConnection[]>;
}
