import { rm, stat } from "node:fs/promises";

// Kuzu 0.11.3 workaround: a write-ahead log holding only its header (the session was killed
// before its first write) has nothing to replay, yet Kuzu "recovered" it and checkpointed on
// close into a library whose next delete of sections (`MATCH (n:Section) … DELETE n`) segfaulted
// every time (the delete kill runs, bench:robustness). Without the file the library opens as if
// it had been closed cleanly. Checked by the kill runs (test/e2e/crash-kill.test.ts reopens after
// kills at every step, the first ones before anything was written).

/** Size of a Kuzu 0.11.3 write-ahead log with its header and no record. */
export const EMPTY_WAL_BYTES = 12;

/**
 * Removes a header-only log beside `dbPath`. Returns the size of the log that stays (0: none), which
 * says whether the last session ended without closing and left work to replay.
 */
export async function removeEmptyWal(dbPath: string, log: (message: string) => void): Promise<number> {
  const wal = `${dbPath}.wal`;
  const bytes = await stat(wal).then(
    (st) => st.size,
    () => 0,
  );
  if (bytes > 0 && bytes <= EMPTY_WAL_BYTES) {
    await rm(wal, { force: true });
    log(`removed the empty write-ahead log of an unclosed session (${bytes} bytes)`);
    return 0;
  }
  return bytes;
}
