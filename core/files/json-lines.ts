import { createReadStream } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { z } from "zod";
import { PRIVATE_FILE_MODE } from "./private-files.ts";

// Append-only JSON-lines files of a library (the answer log, conversations, deleted documents):
// one record a line, each appended with a single write() on a file opened for appending and
// fsynced before the caller goes on. A crash can at worst tear the last line; readers skip any
// line that is not a valid record, and the next append closes a torn line off first, so a record
// is never glued onto half of another. Earlier lines are never rewritten.

/** Whether the file is missing, empty or ends with a newline (else its last line is torn). */
export async function endsCleanly(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

/**
 * Appends one line (`line` without its newline) and fsyncs it. `clean` says the file is known to
 * end with a newline (skips a read); returns normally only once the line is on disk.
 */
export async function appendLine(file: string, line: string, clean?: boolean): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const closed = clean ?? (await endsCleanly(file));
  const handle = await open(file, "a", PRIVATE_FILE_MODE);
  try {
    await handle.write(closed ? `${line}\n` : `\n${line}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The valid records of a JSON-lines file, in file order, streamed (bounded memory). Lines that are
 * not JSON or not valid under `schema` are passed to `onSkipped` (1-based) and skipped, never
 * fatal. A missing file has no records; any other read error is thrown.
 */
export async function* readJsonLines<T extends z.ZodType>(file: string, schema: T, onSkipped?: (lineNumber: number) => void): AsyncGenerator<z.output<T>> {
  const stream = createReadStream(file, { encoding: "utf8" });
  try {
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        onSkipped?.(n);
        continue;
      }
      const record = schema.safeParse(parsed);
      if (record.success) yield record.data;
      else onSkipped?.(n);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  } finally {
    stream.destroy();
  }
}
