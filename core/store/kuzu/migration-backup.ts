import { copyFile, mkdir, readdir, rename, rm } from "node:fs/promises";
import { fileExists } from "../../files/file-exists.ts";
import path from "node:path";
import { ClauseGraphError } from "../../model/errors.ts";
import type { MigrationPlan } from "./migrations.ts";

// A schema migration rewrites the user's library: before it starts, the database files are copied
// aside, and if it fails the copy is put back, so an upgrade can never cost an auditor the library.
// Each migration already runs in a transaction; the copy also covers a crash between two
// migrations, a corrupt write and a bug in a migration that commits nonsense.
//
// Kuzu 0.11 keeps a database as one file plus, next to it, `<file>.wal` (committed work not yet
// checkpointed) and, during a checkpoint, `<file>.shadow`; `<file>.tmp` is scratch space. The copy
// is taken while the database is open but before anything is written, so the file and its WAL
// together are a consistent snapshot.

const COMPANIONS = ["", ".wal", ".shadow"] as const;
const DEFAULT_KEEP = 2;

/** A migration failed and the library was put back as it was before it. */
export class MigrationFailedError extends ClauseGraphError {
  readonly backupPath: string;

  constructor(dbPath: string, backupPath: string, plan: MigrationPlan, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "DB_ERROR",
      `upgrading the database ${dbPath} from schema v${plan.from} to v${plan.to} failed (${reason}); it was restored from the backup ${backupPath}, which is kept`,
      { file: dbPath, cause },
    );
    this.name = "MigrationFailedError";
    this.backupPath = backupPath;
  }
}

export interface MigrationBackupOptions {
  /** Backups kept beside the database, newest first (default 2). */
  keep?: number;
  log?: (message: string) => void;
  /** Tests: a fixed clock. */
  now?: () => Date;
}

export interface MigrationBackup {
  /** The migrations.ts hook: copies the database aside before it is migrated. */
  beforeMigrate(plan: MigrationPlan): Promise<void>;
  /** The backup taken by this open, if any. */
  taken(): { path: string; plan: MigrationPlan } | null;
  /**
   * After a failed migration, with the database closed: puts the backup back and returns the
   * error to throw (null when no backup was taken, i.e. the failure was not in a migration).
   */
  restoreAfterFailure(cause: unknown): Promise<ClauseGraphError | null>;
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** `<db>.backup-v<from>-<timestamp>` folders beside the database, oldest first. */
export async function listMigrationBackups(dbPath: string): Promise<string[]> {
  const dir = path.dirname(dbPath);
  const prefix = `${path.basename(dbPath)}.backup-v`;
  const names = await readdir(dir).catch(() => [] as string[]);
  // Ordered by the time in the name, then by the counter a second backup within one second gets.
  const key = (name: string): string => {
    const match = /-(\d{8}T\d{6}Z)(?:-(\d+))?(\.part)?$/.exec(name);
    return match ? `${match[1] ?? ""}-${(match[2] ?? "1").padStart(6, "0")}` : "";
  };
  return names
    .filter((n) => n.startsWith(prefix))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .map((n) => path.join(dir, n));
}

export function createMigrationBackup(dbPath: string, options: MigrationBackupOptions = {}): MigrationBackup {
  const keep = Math.max(1, options.keep ?? DEFAULT_KEEP);
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const base = path.basename(dbPath);
  let backup: { path: string; plan: MigrationPlan } | null = null;

  async function copyOut(plan: MigrationPlan): Promise<string> {
    let target = `${dbPath}.backup-v${plan.from}-${stamp(now())}`;
    // Two upgrades within one second (tests) must not share a folder.
    for (let n = 2; await fileExists(target); n++) target = `${dbPath}.backup-v${plan.from}-${stamp(now())}-${n}`;
    const partial = `${target}.part`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    for (const suffix of COMPANIONS) {
      const source = `${dbPath}${suffix}`;
      if (await fileExists(source)) await copyFile(source, path.join(partial, `${base}${suffix}`));
    }
    // Renamed into place only when complete: a half-written backup never looks like a backup.
    await rename(partial, target);
    return target;
  }

  async function prune(): Promise<void> {
    const all = await listMigrationBackups(dbPath);
    const complete = all.filter((p) => !p.endsWith(".part"));
    for (const old of complete.slice(0, Math.max(0, complete.length - keep))) {
      await rm(old, { recursive: true, force: true });
      log(`removed old database backup ${old}`);
    }
  }

  return {
    async beforeMigrate(plan) {
      try {
        const target = await copyOut(plan);
        backup = { path: target, plan };
        log(`database backed up to ${target} before migrating from v${plan.from} to v${plan.to}`);
      } catch (err) {
        // No backup, no migration: the library stays at its version, untouched.
        throw new ClauseGraphError("DB_ERROR", `could not back up ${dbPath} before upgrading it: ${err instanceof Error ? err.message : String(err)}`, {
          file: dbPath,
          cause: err,
        });
      }
      await prune();
    },

    taken: () => backup,

    async restoreAfterFailure(cause) {
      if (backup === null) return null;
      const { path: from, plan } = backup;
      try {
        for (const suffix of COMPANIONS) {
          const saved = path.join(from, `${base}${suffix}`);
          const live = `${dbPath}${suffix}`;
          if (await fileExists(saved)) await copyFile(saved, live);
          else await rm(live, { force: true });
        }
        await rm(`${dbPath}.tmp`, { force: true });
      } catch (err) {
        return new ClauseGraphError(
          "DB_ERROR",
          `upgrading the database ${dbPath} failed and putting back its backup failed too (${err instanceof Error ? err.message : String(err)}): copy the files of ${from} over it by hand`,
          { file: dbPath, cause: cause },
        );
      }
      log(`database restored from ${from} after a failed migration`);
      return new MigrationFailedError(dbPath, from, plan, cause);
    },
  };
}
