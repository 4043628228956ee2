import { z } from "zod";
import { rawTripletSchema, type RawTriplet } from "./extraction-prompt.ts";

// What the cache keeps per section: the model's triplets before cleaning (cleaning depends on the
// whole document, e.g. entity merging, so it is redone on every run from these).

export const cachedExtractionSchema = z.object({
  chunks: z.int().min(0),
  malformedChunks: z.int().min(0),
  triplets: z.array(rawTripletSchema),
});
export type CachedExtraction = z.infer<typeof cachedExtractionSchema>;

/** null when the stored text is not a cached extraction (then the section is extracted again). */
export function parseCachedExtraction(json: string): CachedExtraction | null {
  try {
    const parsed = cachedExtractionSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function serializeCachedExtraction(chunks: number, malformedChunks: number, triplets: readonly RawTriplet[]): string {
  return JSON.stringify({ chunks, malformedChunks, triplets });
}
