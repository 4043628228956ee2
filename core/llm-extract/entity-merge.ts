import type { Embedder } from "../model/embedder.ts";
import { cosineSimilarity } from "../text/index.ts";
import { canonicalKey, normalizeEntity } from "../extract/normalize-entity.ts";

// Entity names from the model become graph nodes keyed like the rule-based ones (so both tiers
// share nodes): the document's acronyms expanded, case, articles and plurals folded, and a name
// equal to one of the document's defined terms takes the term's wording and type. Then, only when
// an embedder is available, names that are near-identical in meaning are merged too.

export interface EntityNamingOptions {
  language: "en" | "it";
  acronyms: ReadonlyMap<string, string>;
  /** Canonical key → the defined term as the document writes it. */
  termsByKey: ReadonlyMap<string, string>;
}

export interface NamedEntity {
  key: string;
  name: string;
  /** "term" when the document defines it, else the model's type (lower-cased) or "concept". */
  type: string;
}

const LEADING_DETERMINER = /^(?:its|their|his|her|our|your|such|said|each|every|any|all|this|that|these|those)\s+/iu;
const MAX_NAME_WORDS = 12;

/** The node an entity mention belongs to; key "" when nothing nameable is left. */
export function nameEntity(mention: string, modelType: string, options: EntityNamingOptions): NamedEntity {
  const cleaned = mention.replace(LEADING_DETERMINER, "").trim();
  const words = normalizeEntity(cleaned, { language: options.language, acronyms: options.acronyms }).split(" ");
  const name = words.slice(0, MAX_NAME_WORDS).join(" ");
  const key = canonicalKey(name, { language: options.language });
  const term = options.termsByKey.get(key);
  if (term !== undefined) return { key, name: normalizeEntity(term, { language: options.language }), type: "term" };
  const type = modelType
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]+/gu, "")
    .trim()
    .slice(0, 30);
  return { key, name, type: type === "" ? "concept" : type };
}

/**
 * Cosine similarity at or above which two names may be the same entity. Static word vectors put
 * distinct roles close together ("data controller" / "data processor"), hence the high bar and
 * the extra rule below.
 */
export const ENTITY_SIMILARITY_THRESHOLD = 0.92;

function headWord(key: string): string {
  const words = key.split(" ");
  return words[words.length - 1] ?? "";
}

/**
 * Maps each key to the key it merges into (itself when none). Two keys merge only when their
 * vectors are at least `threshold` similar AND they share the head word ("competent authority" /
 * "competent supervisory authority"), and never when both are defined terms (the document says
 * they differ). The more often mentioned key survives, so results do not depend on input order.
 */
export async function mergeSimilarEntities(
  entities: ReadonlyArray<{ key: string; name: string; mentions: number; isTerm: boolean }>,
  embedder: Embedder | null,
  threshold = ENTITY_SIMILARITY_THRESHOLD,
): Promise<Map<string, string>> {
  const target = new Map(entities.map((e) => [e.key, e.key]));
  if (embedder === null || entities.length < 2) return target;
  const ordered = [...entities].sort((a, b) => b.mentions - a.mentions || a.key.length - b.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const vectors = await embedder.embedDocuments(ordered.map((e) => e.name));
  const survivors: number[] = [];
  ordered.forEach((entity, i) => {
    const v = vectors[i];
    if (v === undefined) return;
    for (const j of survivors) {
      const other = ordered[j];
      const w = vectors[j];
      if (other === undefined || w === undefined) continue;
      if (entity.isTerm && other.isTerm) continue;
      if (headWord(entity.key) !== headWord(other.key)) continue;
      if (cosineSimilarity(v, w) >= threshold) {
        target.set(entity.key, other.key);
        return;
      }
    }
    survivors.push(i);
  });
  return target;
}
