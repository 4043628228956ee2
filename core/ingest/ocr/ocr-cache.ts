import { createHash, randomBytes } from "node:crypto";
import { open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../files/private-files.ts";
import type { OcrLanguage } from "../../model/ocr-types.ts";
import type { OcrLine } from "./tesseract-pool.ts";

// Each OCR'd page's result is kept under the hash of the picture Tesseract read (plus the language
// and this pipeline's version), one owner-only JSON file per page in `<data dir>/ocr-cache/`, written
// as soon as the page is read. An import cancelled or killed halfway (even SIGKILL of the parsing
// child) therefore resumes from the finished pages: they are rendered again (cheap) and found here
// instead of recognised again (the slow part). The same page in another file, or the same file after a
// library rebuild, is found too. A torn or foreign file fails validation and is read again by OCR.

/** Changes whenever what a cached page means changes: engine, data, segmentation, rendering. */
export const OCR_PIPELINE_VERSION = "tesseract.js-7.0.0/best_int-4.0.0/psm3/render-v1/stroke-v1";
export const OCR_CACHE_DIR = "ocr-cache";
/** The cache is trimmed to this size after imports, oldest pages first (a page's entry is small). */
export const OCR_CACHE_MAX_BYTES = 256 * 1024 * 1024;

const box = { x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() };
const cachedPageSchema = z.object({
  version: z.literal(OCR_PIPELINE_VERSION),
  language: z.string(),
  lines: z.array(
    z.object({
      words: z.array(z.object({ text: z.string(), confidence: z.number(), stroke: z.number(), ...box })),
      baseline: z.object(box),
      rowHeight: z.number(),
    }),
  ),
});

export function ocrCacheDir(dataDir: string): string {
  return path.join(dataDir, OCR_CACHE_DIR);
}

/** The cache key of a page picture read in a language. */
export function ocrCacheKey(picture: Uint8Array, language: OcrLanguage): string {
  return createHash("sha256").update(OCR_PIPELINE_VERSION).update("\0").update(language).update("\0").update(picture).digest("hex");
}

function entryPath(dir: string, key: string): string {
  return path.join(dir, `${key}.json`);
}

export async function readCachedPage(dir: string, key: string): Promise<OcrLine[] | null> {
  let text: string;
  try {
    text = await readFile(entryPath(dir, key), "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = cachedPageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.lines : null;
  } catch {
    return null;
  }
}

/** Written to a temporary name and renamed: a reader sees the whole entry or none. */
export async function writeCachedPage(dir: string, key: string, language: OcrLanguage, lines: readonly OcrLine[]): Promise<void> {
  await ensurePrivateDir(dir);
  const target = entryPath(dir, key);
  const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "wx", PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(JSON.stringify({ version: OCR_PIPELINE_VERSION, language, lines }), "utf8");
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Removes the oldest entries until the cache holds at most `maxBytes`; leftover temporary files go too. */
export async function pruneOcrCache(dir: string, maxBytes = OCR_CACHE_MAX_BYTES): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const entries = (
    await Promise.all(
      names.map(async (name) => {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => null);
        return info?.isFile() === true ? { file, name, size: info.size, time: info.mtimeMs } : null;
      }),
    )
  ).filter((e): e is { file: string; name: string; size: number; time: number } => e !== null);
  let total = entries.reduce((sum, e) => sum + e.size, 0);
  let removed = 0;
  // Temporary files older than a minute belong to a writer that died.
  const stale = Date.now() - 60_000;
  for (const e of entries.sort((a, b) => a.time - b.time)) {
    const leftover = e.name.endsWith(".tmp") && e.time < stale;
    if (!leftover && total <= maxBytes) continue;
    await rm(e.file, { force: true });
    total -= e.size;
    removed++;
  }
  return removed;
}
