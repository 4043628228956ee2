// The labelled triplet sample (test/corpus/graph-triplets-labelled.json) and how extracted
// triplets are matched to it and scored. Shared by bench:graph and the corpus test.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { entityName } from "../../core/extract/entity-names.ts";
import type { Obligation } from "../../core/extract/obligation-types.ts";
import type { TripletRecord } from "../../core/model/graph-records.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const LABELLED_TRIPLETS_FILE = path.resolve(here, "../../test/corpus/graph-triplets-labelled.json");

const itemSchema = z.object({
  file: z.string(),
  section: z.string(),
  sentence: z.string(),
  trigger: z.string(),
  nth: z.int().nonnegative(),
  conjunct: z.int().nonnegative(),
  subject: z.array(z.string()).min(1),
  predicate: z.array(z.string()).min(1),
  object: z.array(z.string()).min(1),
});
const fileSchema = z.object({
  description: z.string(),
  conventions: z.array(z.string()),
  labelledAtExtraction: z.object({ items: z.int(), subjectErrors: z.int(), predicateErrors: z.int(), objectErrors: z.int() }),
  items: z.array(itemSchema),
});

export type LabelledTriplet = z.infer<typeof itemSchema>;
export type LabelledTripletFile = z.infer<typeof fileSchema>;

export function readLabelledTriplets(file = LABELLED_TRIPLETS_FILE): LabelledTripletFile {
  return fileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

/** One extracted triplet with what matching needs: its section label and text, and the obligation it was read from. */
export interface ExtractedTriplet {
  file: string;
  sectionLabel: string;
  sectionText: string;
  triplet: TripletRecord;
  obligation: Obligation;
}

const collapse = (s: string): string => s.replace(/\s+/g, " ").trim();
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The labelling identity of an extracted triplet: sentence start, trigger, occurrence, conjunct. */
function identity(t: ExtractedTriplet): { sentence: string; trigger: string; nth: number } {
  const o = t.obligation;
  const sentence = collapse(t.sectionText.slice(o.span.start, o.span.end));
  if (o.implicit === true || o.trigger === undefined) return { sentence, trigger: "(imperative)", nth: 0 };
  const trigger = collapse(t.sectionText.slice(o.trigger.start, o.trigger.end)).toLowerCase();
  const before = collapse(t.sectionText.slice(o.span.start, o.trigger.start)).toLowerCase();
  const nth = (before.match(new RegExp(`\\b${escapeRegExp(trigger)}\\b`, "g")) ?? []).length;
  return { sentence, trigger, nth };
}

// Adverbs are not compared ("shall be duly framed by" = "shall be framed by"); these end in -ly and are verbs.
const LY_VERBS = new Set(["apply", "comply", "supply", "rely", "reply", "multiply", "ally", "tally", "fly"]);
export function normalizePredicate(p: string): string {
  return collapse(p.toLowerCase())
    .split(" ")
    .filter((w) => !(/ly$/.test(w) && !LY_VERBS.has(w)) && w !== "also" && w !== "only" && w !== "then" && w !== "further")
    .join(" ")
    .replace(/\s*,\s*/g, ", ");
}

export interface ScoredItem {
  item: LabelledTriplet;
  found: boolean;
  subject: boolean;
  predicate: boolean;
  object: boolean;
  extracted?: { subject: string; predicate: string; object: string };
}

export interface TripletPrecision {
  items: number;
  /** Labelled triplets the extractor still produces (the rest count as misses, not as errors). */
  matched: number;
  subject: number;
  predicate: number;
  object: number;
  scored: ScoredItem[];
}

/**
 * Scores extracted triplets against the labels: precision of subject, predicate and object over
 * the labelled triplets the extractor produced. Names compare by entity key (head singular,
 * articles dropped, the document's acronyms expanded), predicates without adverbs.
 */
export function scoreTriplets(
  labels: readonly LabelledTriplet[],
  extracted: readonly ExtractedTriplet[],
  acronymsOf: (file: string) => ReadonlyMap<string, string>,
): TripletPrecision {
  const byKey = new Map<string, ExtractedTriplet[]>();
  for (const t of extracted) {
    const id = identity(t);
    const key = `${t.file}\u0000${t.sectionLabel}\u0000${id.trigger}\u0000${id.nth}`;
    const list = byKey.get(key) ?? [];
    list.push(t);
    byKey.set(key, list);
  }
  const scored: ScoredItem[] = labels.map((item) => {
    const candidates = (byKey.get(`${item.file}\u0000${item.section}\u0000${item.trigger}\u0000${item.nth}`) ?? []).filter((t) => {
      // Two sentences of a section may share a long opening (DORA Art. 19 has two "Credit institutions
      // classified as significant, in accordance with …"): the whole stored start is compared.
      const sentence = identity(t).sentence;
      const prefix = collapse(item.sentence);
      return sentence.startsWith(prefix) || prefix.startsWith(sentence);
    });
    const t = candidates[item.conjunct] ?? (item.conjunct > 0 ? candidates[candidates.length - 1] : undefined);
    if (t === undefined) return { item, found: false, subject: false, predicate: false, object: false };
    const language = /^it_/.test(item.file) ? "it" : "en";
    const naming = { language, acronyms: acronymsOf(item.file) } as const;
    const key = (s: string): string => (s.trim() === "" ? "" : (entityName(s, naming)?.key ?? collapse(s.toLowerCase())));
    const subject = item.subject.map(key).includes(key(t.triplet.subject));
    const predicate = item.predicate.map(normalizePredicate).includes(normalizePredicate(t.triplet.predicate));
    const object = item.object.map(key).includes(key(t.triplet.object));
    return {
      item,
      found: true,
      subject,
      predicate,
      object,
      extracted: { subject: t.triplet.subject, predicate: t.triplet.predicate, object: t.triplet.object },
    };
  });
  const found = scored.filter((s) => s.found);
  const share = (f: (s: ScoredItem) => boolean): number => (found.length === 0 ? 0 : found.filter(f).length / found.length);
  return {
    items: labels.length,
    matched: found.length,
    subject: share((s) => s.subject),
    predicate: share((s) => s.predicate),
    object: share((s) => s.object),
    scored,
  };
}
