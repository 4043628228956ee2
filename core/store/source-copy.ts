import { chmod, copyFile, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../model/errors.ts";

// The engine keeps a copy of every imported file in its data folder. Writing it is where a full
// disk, a read-only folder or a failing drive shows first; the failure must come back as a typed
// error naming the path, and leave no half-written copy behind.

/** The file operations used, replaceable in tests to inject ENOSPC or EIO. */
export interface SourceCopyFs {
  mkdir(dir: string, options: { recursive: true; mode?: number }): Promise<unknown>;
  copyFile(from: string, to: string): Promise<void>;
  /** Optional so test doubles that only inject failures need not implement it. */
  chmod?(file: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(file: string, options: { force: true }): Promise<void>;
}

/** For a copy written from bytes already read (the import reads a dropped file once). */
export interface SourceBytesFs extends Omit<SourceCopyFs, "copyFile"> {
  writeFile(to: string, bytes: Uint8Array, options: { mode: number }): Promise<void>;
}

const NODE_FS: SourceCopyFs & SourceBytesFs = { mkdir, copyFile, writeFile, chmod, rename, rm };

const REASONS: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is exhausted",
  EROFS: "the folder is on a read-only file system",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EIO: "an input/output error (failing drive?)",
};

function errnoCode(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : "";
}

/** Copies `from` to `to` through `<to>.part`, so `to` is either complete or absent. */
export async function keepSourceCopy(from: string, to: string, fs: SourceCopyFs = NODE_FS): Promise<void> {
  await landCopy(from, to, fs, (partial) => fs.copyFile(from, partial));
}

/** Writes the bytes read from `from` to `to` through `<to>.part`, so `to` is either complete or absent. */
export async function keepSourceBytes(bytes: Uint8Array, from: string, to: string, fs: SourceBytesFs = NODE_FS): Promise<void> {
  await landCopy(from, to, fs, (partial) => fs.writeFile(partial, bytes, { mode: 0o600 }));
}

async function landCopy(from: string, to: string, fs: Omit<SourceCopyFs, "copyFile">, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${to}.part`;
  try {
    await fs.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await write(partial);
    // copyFile gives the copy the original's mode (libuv fchmods it, ignoring the umask): a 0644
    // PDF became a 0644 copy any local user could read. Tightened before it gets its final name.
    await fs.chmod?.(partial, 0o600);
    await fs.rename(partial, to);
  } catch (err) {
    await fs.rm(partial, { force: true }).catch(() => undefined);
    const code = errnoCode(err);
    const reason = REASONS[code] ?? (err instanceof Error ? err.message : String(err));
    throw new ClauseGraphError("WRITE_FAILED", `could not keep a copy of ${from} in ${to}: ${reason}${code && REASONS[code] ? ` (${code})` : ""}`, {
      file: to,
      cause: err,
    });
  }
}
