import type { WinkMethods } from "wink-nlp";
import { englishPipeline } from "../text/index.ts";
import { createEnglishNlp, type EnglishNlp } from "../extract/obligations.ts";
import { instrumentForAlias } from "../names/instrument-names.ts";
import type { InstrumentEntry } from "../names/instrument-registry.ts";

// What reading questions and answers loads or remembers, owned by whoever answers (createEngine
// makes one and it goes with the engine): the two wink pipelines, each loaded on first use
// (each is slow to load, and an engine that only imports or lists never needs them), and the
// alias → instrument lookups every question over the same library repeats. Passed down
// explicitly instead of living in module variables, so nothing outlives its engine.

/** Alias lookups kept before the memo is emptied: bounds memory for libraries with many aliases. */
const ALIAS_CAPACITY = 10_000;

export interface LanguageResources {
  /** wink with sentence boundaries only: sections and model answers cut into sentences (sentence-units.ts). */
  sentencePipeline(): WinkMethods;
  /** wink with POS tags and lemmas: a question's focus terms (question-analysis.ts). */
  englishNlp(): EnglishNlp;
  /** The registry instrument an alias names, or null (question-scope.ts). */
  instrumentOfAlias(alias: string): InstrumentEntry | null;
}

export function createLanguageResources(): LanguageResources {
  let sentences: WinkMethods | null = null;
  let english: EnglishNlp | null = null;
  const aliasEntries = new Map<string, InstrumentEntry | null>();
  return {
    sentencePipeline() {
      sentences ??= englishPipeline(["sbd"]);
      return sentences;
    },
    englishNlp() {
      english ??= createEnglishNlp();
      return english;
    },
    instrumentOfAlias(alias) {
      let entry = aliasEntries.get(alias);
      if (entry === undefined) {
        entry = instrumentForAlias(alias) ?? null;
        if (aliasEntries.size > ALIAS_CAPACITY) aliasEntries.clear();
        aliasEntries.set(alias, entry);
      }
      return entry;
    },
  };
}
