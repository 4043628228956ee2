import { z } from "zod";
import { readSetting, writeSetting } from "../../files/settings-file.ts";

// How fast this machine reads scanned pages, measured on its own OCR imports and kept in
// settings.json: the prompt "read it with OCR (about N s)?" is priced from it. A fixed figure
// from another machine underestimated an import on a loaded laptop several times over.

const SETTINGS_KEY = "ocrPace";
/** The last few imports count; their median, so one odd run does not swing the estimate. */
const KEPT = 5;
/** A run this short was served from the page cache (a resumed import), not read: not a measure. */
const MIN_SECONDS_PER_PAGE = 0.5;

const paceSchema = z.object({ secondsPerPage: z.array(z.number().positive()).max(KEPT) });

/** Wall-clock seconds per OCR'd page on this machine (all workers together), or null before the first measure. */
export async function readOcrPace(dataDir: string): Promise<number | null> {
  const saved = paceSchema.safeParse(await readSetting(dataDir, SETTINGS_KEY).catch(() => undefined));
  if (!saved.success || saved.data.secondsPerPage.length === 0) return null;
  const sorted = [...saved.data.secondsPerPage].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/** Records an OCR run: `pages` read in `seconds` of wall-clock time. */
export async function recordOcrPace(dataDir: string, pages: number, seconds: number): Promise<void> {
  if (pages < 1) return;
  const perPage = seconds / pages;
  if (!Number.isFinite(perPage) || perPage < MIN_SECONDS_PER_PAGE) return;
  const saved = paceSchema.safeParse(await readSetting(dataDir, SETTINGS_KEY).catch(() => undefined));
  const kept = saved.success ? saved.data.secondsPerPage : [];
  await writeSetting(dataDir, SETTINGS_KEY, { secondsPerPage: [...kept, perPage].slice(-KEPT) });
}
