import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Whether scanned pages are read with OCR, and in which language, as the user last chose.

type OcrChannels = "ocr.preference" | "ocr.setPreference";

export function ocrHandlers({ engine }: HandlerContext): FeatureHandlers<OcrChannels> {
  return {
    "ocr.preference": () => engine.ocrPreference(),
    "ocr.setPreference": (params) => engine.setOcrPreference(params),
  };
}
