import type { Section } from "../../model/section-types.ts";
import type { RetrievalStore } from "../../store/retrieval-store.ts";
import { partLabel, partNumber, provisionLabel } from "../../structure/part-label.ts";
import { pathSlug } from "../../structure/slug.ts";

// A provision longer than a section may be is stored in parts ("§ 164.512", "§ 164.512 (part 2)",
// …; structure/section-builder.ts). The second part opens in the middle of "(c)(1)": read alone,
// its "(iii)" has no known parents and is cited by the provision only (pinpoint.ts). Reading the
// earlier parts first gives it back its "(c)(1)(iii)".

/** Parts are siblings of the provision's first part: same parent path, label "<provision> (part n)". */
function earlierIds(section: Section): Array<{ id: string; label: string }> {
  const provision = provisionLabel(section.label);
  const parent = section.path.slice(0, -1);
  const out: Array<{ id: string; label: string }> = [];
  for (let k = 1; k < partNumber(section.label); k++) {
    const label = partLabel(provision, k);
    out.push({ id: `${section.documentId}:${pathSlug([...parent, label])}`, label });
  }
  return out;
}

/**
 * For each section that is a later part of its provision, the text of the parts before it, in
 * order (section id → text). A part the store no longer has, or whose id was made unique with a
 * suffix, is left out: its pinpoints are then printed only where they are known.
 */
export async function earlierPartsText(store: Pick<RetrievalStore, "getSectionsByIds">, sections: readonly Section[]): Promise<Map<string, string>> {
  const wanted = new Map(sections.map((s) => [s.id, earlierIds(s)] as const).filter(([, ids]) => ids.length > 0));
  const out = new Map<string, string>();
  if (wanted.size === 0) return out;
  const ids = [...new Set([...wanted.values()].flat().map((p) => p.id))];
  const found = new Map((await store.getSectionsByIds(ids)).map(({ section }) => [section.id, section] as const));
  for (const [id, parts] of wanted) {
    const texts: string[] = [];
    for (const part of parts) {
      const section = found.get(part.id);
      // The first parts are what matter most; a gap would misplace the later markers.
      if (section === undefined || section.label !== part.label) break;
      texts.push(section.text);
    }
    if (texts.length === parts.length) out.set(id, texts.join("\n"));
  }
  return out;
}
