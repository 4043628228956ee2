// The labelled crosswalks bench:compare and the corpus test measure alignment against:
//  - the topical crosswalk written by reading DORA, the GDPR and NIST SP 800-171
//    (test/corpus/compare-crosswalk.json), split into "fit" and "test" pairs;
//  - the crosswalk NIST SP 800-66r1 states itself: its sections 4.1–4.22 each name, in their
//    heading, the HIPAA Security Rule standard they explain ("Security Management Process
//    (§ 164.308(a)(1))"), read here from the imported sections, not typed in.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { Section } from "../../core/model/section-types.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const TOPICAL_CROSSWALK_FILE = path.resolve(here, "../../test/corpus/compare-crosswalk.json");

/** The corpus PDFs the labelled crosswalks need. */
export const COMPARE_PDFS = {
  dora: "eu_dora_2022-2554_OJ_L333.pdf",
  gdpr: "eu_gdpr_2016-679_council_first_reading_position_5419-16.pdf",
  nist171: "us_nist_sp800-171r2_cui_nonfederal.pdf",
  nist66: "us_nist_sp800-66r1_hipaa_security_rule_guide.pdf",
  hipaa: "us_hhs_hipaa_admin_simplification_45cfr160_162_164.pdf",
} as const;

export type CompareDocKey = keyof typeof COMPARE_PDFS;

export interface LabelledPair {
  a: CompareDocKey;
  aLabel: string;
  b: CompareDocKey;
  bLabel: string;
  split: "fit" | "test" | "derived";
  topic: string;
  why: string;
}

const docKey = z.enum(Object.keys(COMPARE_PDFS) as [CompareDocKey, ...CompareDocKey[]]);
const fileSchema = z.object({
  description: z.string(),
  documents: z.record(z.string(), z.string()),
  pairs: z.array(
    z.object({
      a: docKey,
      aLabel: z.string().min(1),
      b: docKey,
      bLabel: z.string().min(1),
      split: z.enum(["fit", "test"]),
      topic: z.string(),
      why: z.string().min(1),
    }),
  ),
});

export async function loadTopicalCrosswalk(file = TOPICAL_CROSSWALK_FILE): Promise<LabelledPair[]> {
  return fileSchema.parse(JSON.parse(await readFile(file, "utf8"))).pairs;
}

/** "§ 164.512 (part 2)" → "§ 164.512": a provision stored in parts is matched by any of them. */
export function baseLabel(label: string): string {
  return label.replace(/ \(part \d+\)$/, "");
}

/**
 * NIST SP 800-66r1 §§ 4.1–4.22 → the HIPAA section each heading names: "Section 4.1", heading
 * "Security Management Process (§ 164.308(a)(1))" → "§ 164.308" (sections are stored at § level).
 */
export function nistHipaaCrosswalk(nist66Sections: readonly Section[]): LabelledPair[] {
  const out: LabelledPair[] = [];
  for (const s of nist66Sections) {
    if (!/^Section 4\.\d+$/.test(s.label)) continue;
    const cited = /§\s*(\d{3}\.\d+)/.exec(s.heading);
    if (cited === null) continue;
    out.push({
      a: "nist66",
      aLabel: s.label,
      b: "hipaa",
      bLabel: `§ ${cited[1] ?? ""}`,
      split: "derived",
      topic: s.heading.replace(/\s*\(§.*$/, ""),
      why: `NIST SP 800-66r1 ${s.label} "${s.heading}" explains that HIPAA Security Rule standard`,
    });
  }
  return out;
}

export interface CrosswalkMatchLike {
  bLabel: string;
  score: number;
}

export interface CrosswalkRowLike {
  aLabel: string;
  matches: readonly CrosswalkMatchLike[];
}

export interface HitReport {
  pairs: number;
  hits: number;
  hitAtK: number;
  misses: Array<{ pair: LabelledPair; got: string[] }>;
}

/** For each labelled pair: is B's provision among the first `k` matches of A's (any of its parts)? */
export function hitAtK(rows: readonly CrosswalkRowLike[], pairs: readonly LabelledPair[], k: number): HitReport {
  // A provision stored in parts has one row per part: its matches are merged (best score per B
  // provision) before the k best are taken, so it gets k, not k per part.
  const scores = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const a = baseLabel(row.aLabel);
    const merged = scores.get(a) ?? new Map<string, number>();
    for (const m of row.matches) merged.set(baseLabel(m.bLabel), Math.max(merged.get(baseLabel(m.bLabel)) ?? 0, m.score));
    scores.set(a, merged);
  }
  const byA = new Map<string, string[]>();
  for (const [a, merged] of scores)
    byA.set(
      a,
      [...merged]
        .sort((x, y) => y[1] - x[1])
        .slice(0, k)
        .map(([label]) => label),
    );
  const misses: HitReport["misses"] = [];
  let hits = 0;
  for (const pair of pairs) {
    const got = byA.get(pair.aLabel) ?? [];
    if (got.includes(pair.bLabel)) hits++;
    else misses.push({ pair, got });
  }
  return { pairs: pairs.length, hits, hitAtK: pairs.length === 0 ? 0 : hits / pairs.length, misses };
}
