import winkNLP, { type WinkMethods } from "wink-nlp";
import model from "wink-eng-lite-web-model";

// wink-eng-lite-web-model 1.8.1 keeps its custom-entity meta model in a module variable and
// replaces it with its own JSON text on every load (`machines = JSON.stringify(machines)` in
// load-cer-meta-model.js). Each winkNLP(model) therefore escapes the previous text again: it grows
// about fourfold per load, and a process that had loaded the model some twenty times (an engine
// loads it twice; tests and benches open many engines, a long session re-creates pipelines) failed
// every later import with INTERNAL "Invalid string length". Every pipeline is made from this copy
// of the model, whose meta model is taken once.

type Model = typeof model;

const loadMeta: unknown = (model as unknown as { metaCER?: unknown }).metaCER;
let meta: unknown;

/** The English model, safe to load any number of times in one process. */
const ENGLISH_MODEL: Model =
  typeof loadMeta === "function"
    ? Object.assign(Object.create(null) as Model, model, { metaCER: (): unknown => (meta ??= (loadMeta as () => unknown).call(model)) })
    : model;

/** A wink pipeline over the English model, running only `pipes` (e.g. sentence boundaries and POS tags). */
export function englishPipeline(pipes: readonly string[]): WinkMethods {
  return winkNLP(ENGLISH_MODEL, [...pipes]);
}
