import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

// A cross-process lock on a folder name, so the CLI and the app starting together on a fresh data
// folder build the default model once instead of twice (each build holds a lot of memory for a
// while). mkdir is atomic on every platform. Correctness does not rest on the lock (builds are
// written to a temp folder and renamed into place); it only saves duplicate work, so a lock left
// by a crashed process is simply broken once it is older than `staleMs`.

export interface DirLockOptions {
  staleMs?: number;
  pollMs?: number;
}

async function tryAcquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch (err) {
    if (err instanceof Error && "code" in err && err.code === "EEXIST") return false;
    throw err;
  }
  await writeFile(path.join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
  return true;
}

async function isStale(lockDir: string, staleMs: number): Promise<boolean> {
  try {
    const info = await stat(lockDir);
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    return false; // vanished: the next attempt will take it
  }
}

export async function withDirLock<T>(lockDir: string, work: () => Promise<T>, options: DirLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 10 * 60_000;
  const pollMs = options.pollMs ?? 200;
  await mkdir(path.dirname(lockDir), { recursive: true });
  while (!(await tryAcquire(lockDir))) {
    if (await isStale(lockDir, staleMs)) await rm(lockDir, { recursive: true, force: true });
    else await sleep(pollMs);
  }
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}
