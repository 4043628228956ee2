import { z } from "zod";
import { readSetting, writeSetting } from "../../files/settings-file.ts";
import type { OcrPreference } from "../../model/engine-types.ts";
import { ocrLanguageSchema } from "../../model/ocr-types.ts";

// The app's remembered answer to "This PDF is scanned — read it with OCR?", in settings.json
// beside the model choice (written atomically there). The CLI does not use it: `--ocr` defaults
// to auto.

const SETTINGS_KEY = "ocr";

export const ocrPreferenceSchema = z.object({
  mode: z.enum(["ask", "auto", "never"]),
  language: z.union([ocrLanguageSchema, z.literal("auto")]),
});

export const DEFAULT_OCR_PREFERENCE: OcrPreference = { mode: "ask", language: "auto" };

/** The saved preference; the default when none was saved or the saved one is not valid. */
export async function readOcrPreference(dataDir: string): Promise<OcrPreference> {
  const saved = ocrPreferenceSchema.safeParse(await readSetting(dataDir, SETTINGS_KEY).catch(() => undefined));
  return saved.success ? saved.data : { ...DEFAULT_OCR_PREFERENCE };
}

export async function writeOcrPreference(dataDir: string, preference: OcrPreference): Promise<OcrPreference> {
  const value = ocrPreferenceSchema.parse(preference);
  await writeSetting(dataDir, SETTINGS_KEY, value);
  return value;
}
