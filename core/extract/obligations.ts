import { findItalianObligations } from "./obligations-it.ts";
import { findEnglishObligations } from "./obligations-en.ts";
import { createEnglishNlp, type EnglishNlp } from "./english-tokens.ts";
import type { Obligation } from "./obligation-types.ts";

export type { Obligation, Modality } from "./obligation-types.ts";
export { createEnglishNlp, type EnglishNlp } from "./english-tokens.ts";

// Obligations, prohibitions, permissions and recommendations as subject–predicate–object: English
// from wink-nlp's POS tags (obligations-en.ts), Italian by rules (obligations-it.ts: no Italian
// tagger is available offline here).

export interface ObligationOptions {
  language?: "en" | "it";
  nlp?: EnglishNlp;
  /** Keep "should" sentences as modality "should" (default true); false drops them. */
  includeShould?: boolean;
  /** English: the party imperative requirements address ("Limit system access …" → "nonfederal organization"). */
  addressee?: string;
}

/** Obligations in `text`, in order. */
export function findObligations(text: string, options: ObligationOptions = {}): Obligation[] {
  if ((options.language ?? "en") === "it") return findItalianObligations(text);
  return findEnglishObligations(options.nlp ?? createEnglishNlp(), text, {
    ...(options.includeShould === undefined ? {} : { includeShould: options.includeShould }),
    ...(options.addressee === undefined ? {} : { addressee: options.addressee }),
  });
}
