import type { Section } from "../model/section-types.ts";
import type { RetrievalStore } from "../store/retrieval-store.ts";
import type { GraphLink } from "../model/retrieval-types.ts";

export interface ExpansionSeed {
  sectionId: string;
  /** The seed's first-pass score in [0, 1]; neighbours inherit a share of it. */
  score: number;
}

export interface ExpandedSection {
  sectionId: string;
  /** Best propagated score over all the links that reached it. */
  score: number;
  links: GraphLink[];
}

export interface ExpansionOptions {
  /** Share of the seed's score passed along each kind of link. */
  parent: number;
  child: number;
  cites: number;
  citedBy: number;
  /** Most children taken per seed (a chapter can have hundreds). */
  maxChildren: number;
}

export const DEFAULT_EXPANSION: ExpansionOptions = { parent: 0.5, child: 0.6, cites: 0.7, citedBy: 0.4, maxChildren: 8 };

// Follows the document structure and the citations one hop from the best first-pass sections:
// a rule whose words match the question often sits under a heading, or cites the rule, that
// actually answers it. Sections already found keep their place; expansion only adds evidence.
export async function graphExpansionStage(
  store: RetrievalStore,
  seeds: readonly ExpansionSeed[],
  /** The seeds' sections (for their parents), read while the links are. */
  sectionsOf: () => Promise<ReadonlyMap<string, Section>>,
  options: ExpansionOptions = DEFAULT_EXPANSION,
): Promise<ExpandedSection[]> {
  if (seeds.length === 0) return [];
  const ids = seeds.map((s) => s.sectionId);
  const [children, references, sectionsById] = await Promise.all([store.getChildSectionIds(ids), store.getCrossReferences(ids), sectionsOf()]);
  const out = new Map<string, ExpandedSection>();
  const add = (sectionId: string, score: number, link: GraphLink): void => {
    if (sectionId === link.from) return;
    const seen = out.get(sectionId);
    if (seen) {
      seen.score = Math.max(seen.score, score);
      if (seen.links.length < 4) seen.links.push(link);
    } else {
      out.set(sectionId, { sectionId, score, links: [link] });
    }
  };
  const seedScore = new Map(seeds.map((s) => [s.sectionId, s.score]));
  for (const seed of seeds) {
    const parentId = sectionsById.get(seed.sectionId)?.parentId ?? null;
    if (parentId !== null) add(parentId, seed.score * options.parent, { from: seed.sectionId, relation: "parent" });
    for (const child of (children.get(seed.sectionId) ?? []).slice(0, options.maxChildren)) {
      add(child, seed.score * options.child, { from: seed.sectionId, relation: "child" });
    }
  }
  for (const ref of references) {
    if (ref.toSectionId === null || ref.toSectionId === "") continue;
    const fromSeed = seedScore.get(ref.fromSectionId);
    if (fromSeed !== undefined) add(ref.toSectionId, fromSeed * options.cites, { from: ref.fromSectionId, relation: "cites" });
    const toSeed = seedScore.get(ref.toSectionId);
    if (toSeed !== undefined) add(ref.fromSectionId, toSeed * options.citedBy, { from: ref.toSectionId, relation: "cited-by" });
  }
  return [...out.values()].sort((a, b) => b.score - a.score || (a.sectionId < b.sectionId ? -1 : 1));
}
