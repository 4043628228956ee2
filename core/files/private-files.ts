import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

// A library holds what an auditor imported (the source copies), what they asked (the answer log)
// and the graph built from both: only its owner may read it. Measured before this file existed:
// graph.kuzu and sources/* were created 0644 in 0755 folders (readable by every local user), while
// the answer log and settings, opened with an explicit mode, were 0600.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const GROUP_AND_OTHER = 0o077;

// chmod on Windows only toggles the read-only flag; a user's profile folder is private there already.
const POSIX = process.platform !== "win32";

/**
 * Called once at each engine process's entry point (CLI, web host, Electron engine process), never
 * from library code: Kuzu (native) creates graph.kuzu, its WAL and checkpoint files with mode 0644
 * and we cannot pass it a mode, and neither can we for files a future dependency writes. A process
 * umask of 077 makes every file the process creates owner-only from its first byte, with no window
 * in which another user could open it. In-process users (tests) get the chmods of tightenDataDir
 * at every engine start instead.
 */
export function restrictUmask(): void {
  try {
    process.umask(GROUP_AND_OTHER);
  } catch {
    // Worker threads may not change the umask; tightenDataDir still applies.
  }
}

/** Removes group/other bits from one entry we own. Symlinks, others' files and hard links are left alone. */
async function tighten(target: string): Promise<"dir" | "file" | null> {
  const info = await lstat(target).catch(() => null);
  if (info === null || info.isSymbolicLink()) return null;
  const kind = info.isDirectory() ? "dir" : info.isFile() ? "file" : null;
  if (!POSIX || kind === null) return kind;
  // A folder someone else owns (a shared library set up by an admin) keeps the modes they chose.
  if (typeof process.getuid === "function" && info.uid !== process.getuid()) return kind;
  // A hard-linked file shares its inode with a file outside the library (`models import` links the
  // user's GGUF when it can): changing its mode would change the user's own file.
  if (kind === "file" && info.nlink > 1) return kind;
  if ((info.mode & GROUP_AND_OTHER) !== 0) await chmod(target, info.mode & 0o700);
  return kind;
}

/** Creates `dir` (and missing parents) owner-only; an existing one of ours is tightened to 0700. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await tighten(dir);
}

/**
 * Makes the data directory and everything in it owner-only: folders 0700, files 0600 (owner bits
 * kept). Run when an engine opens a library, after Kuzu created its files, so libraries made before
 * this existed, or by a process without restrictUmask, are fixed on their next start. Walking even
 * a large library is cheap (one lstat a file; chmod only where needed).
 */
export async function tightenDataDir(dataDir: string): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const full = path.join(dir, name);
      if ((await tighten(full)) === "dir") await walk(full);
    }
  };
  if ((await tighten(dataDir)) === "dir") await walk(dataDir);
}
