import { findDeadlines } from "../extract/deadlines.ts";
import type { TripletRecord } from "../model/graph-records.ts";
import type { ObligationRow, ObligationView, PairFlag } from "../model/compare-schemas.ts";
import { contentWords, type CompareLanguage } from "./compare-text.ts";
import { jaccard, type EnglishStems } from "../text/index.ts";
import { comparableDeadlines, readDeadline, stricterDeadline, tightestDeadline, type Deadline } from "./deadline-duration.ts";

// The differences an auditor looks for first, without a model: the obligations of two aligned
// provisions side by side (who must do what, how bindingly, by when), paired up by their action,
// object, party and wording, and flagged where they differ — a shorter deadline ("72 hours" vs
// "4 hours"), another modality ("shall" vs "may"), an obligation one side has and the other
// lacks. Built from the rule (and LLM) triplets stored at import.

const MODALITY_WORDS: Record<string, string> = { must: "shall", "must not": "shall not", may: "may", should: "should", "should not": "should not" };
/** How binding each modality is, for "stricter": a prohibition and a duty bind, a recommendation less, a permission not. */
const BINDING: Record<string, number> = { must: 3, "must not": 3, should: 2, "should not": 2, may: 1 };
/**
 * Below this an obligation has no counterpart on the other side. Low on purpose: the sections are
 * already aligned, and two acts name the same duty in other words ("report a major incident to
 * the competent authority" / "notify a personal data breach to the supervisory authority").
 */
export const ALIGN_THRESHOLD = 0.2;
const MAX_LISTED = 3;

interface Prepared {
  view: ObligationView;
  modality: string;
  action: Set<string>;
  object: Set<string>;
  party: Set<string>;
  words: Set<string>;
  deadline: Deadline | null;
}

function prepare(t: TripletRecord, language: CompareLanguage, stems: EnglishStems): Prepared | null {
  const modality = MODALITY_WORDS[t.modality];
  if (modality === undefined) return null;
  const action = t.predicate.replace(/^(?:shall|must|may|should|can|cannot)\s+(?:not\s+)?(?:be\s+)?/i, "");
  return {
    view: {
      tripletId: t.id,
      party: t.subject,
      action,
      object: t.object,
      modality,
      deadline: t.deadline,
      span: { start: t.start, end: t.end },
    },
    modality: t.modality,
    action: new Set(contentWords(action, language, stems)),
    object: new Set(contentWords(t.object, language, stems)),
    party: new Set(contentWords(t.subject, language, stems)),
    words: new Set(contentWords(t.evidence, language, stems)),
    deadline: tightestDeadline(t.deadline),
  };
}

/**
 * How alike two obligations are: the action and its object weigh most, then the wording and the
 * party; both setting a time limit, or binding alike, count a little.
 */
export function obligationSimilarity(a: Prepared, b: Prepared): number {
  return (
    0.3 * jaccard(a.action, b.action) +
    0.25 * jaccard(a.object, b.object) +
    0.2 * jaccard(a.words, b.words) +
    0.1 * jaccard(a.party, b.party) +
    (a.deadline !== null && b.deadline !== null ? 0.15 : 0) +
    (a.modality === b.modality ? 0.05 : 0)
  );
}

function describe(o: ObligationView): string {
  return [o.party, o.modality, o.action, o.object].filter((x) => x.trim() !== "").join(" ");
}

function deadlineFlag(a: Deadline | null, b: Deadline | null): PairFlag | null {
  if (a === null && b === null) return null;
  if (a === null || b === null) {
    const side = a === null ? "b" : "a";
    const d = (a ?? b) as Deadline;
    const what = d.kind === "frequency" ? "a frequency" : "a time limit";
    return { kind: "deadline", side, message: `Only ${side.toUpperCase()} sets ${what}: ${d.text}`, ...(a ? { a: a.text } : { b: d.text }), stricter: side };
  }
  if (!comparableDeadlines(a, b)) return null;
  const stricter = stricterDeadline(a, b);
  if (stricter === "same") return null;
  return {
    kind: "deadline",
    side: "both",
    message:
      stricter === null
        ? `Different time limits: ${a.text} (A) vs ${b.text} (B)`
        : `${stricter === "a" ? "A" : "B"} is stricter ${a.kind === "frequency" ? "on frequency" : "on time"}: ${a.text} (A) vs ${b.text} (B)`,
    a: a.text,
    b: b.text,
    ...(stricter === null ? {} : { stricter }),
  };
}

function modalityFlag(a: Prepared, b: Prepared): PairFlag | null {
  if (a.modality === b.modality) return null;
  const opposite = (a.modality === "must" && b.modality === "must not") || (a.modality === "must not" && b.modality === "must");
  const ba = BINDING[a.modality] ?? 0;
  const bb = BINDING[b.modality] ?? 0;
  const stricter = opposite || ba === bb ? undefined : ba > bb ? "a" : "b";
  return {
    kind: "modality",
    side: "both",
    message: opposite ? `Opposite duties: "${a.view.modality}" (A) vs "${b.view.modality}" (B)` : `"${a.view.modality}" (A) vs "${b.view.modality}" (B)`,
    a: a.view.modality,
    b: b.view.modality,
    ...(stricter === undefined ? {} : { stricter }),
  };
}

export interface ObligationDiff {
  rows: ObligationRow[];
  /** Section-level flags: every row's flags plus what no single row shows. */
  flags: PairFlag[];
}

export interface DiffSide {
  text: string;
  triplets: readonly TripletRecord[];
  language: CompareLanguage;
}

/** `stems`: the comparisons' stem cache (core/text/stem-porter.ts). */
export function diffObligations(a: DiffSide, b: DiffSide, stems: EnglishStems): ObligationDiff {
  const left = a.triplets.flatMap((t) => prepare(t, a.language, stems) ?? []);
  const right = b.triplets.flatMap((t) => prepare(t, b.language, stems) ?? []);
  const candidates: Array<{ i: number; j: number; s: number }> = [];
  left.forEach((x, i) => right.forEach((y, j) => candidates.push({ i, j, s: obligationSimilarity(x, y) })));
  candidates.sort((p, q) => q.s - p.s || p.i - q.i || p.j - q.j);
  // Greedy one-to-one pairing, best first: each obligation is compared with its closest counterpart.
  const pairOf = new Map<number, { j: number; s: number }>();
  const takenRight = new Set<number>();
  for (const c of candidates) {
    if (c.s < ALIGN_THRESHOLD) break;
    if (pairOf.has(c.i) || takenRight.has(c.j)) continue;
    pairOf.set(c.i, { j: c.j, s: c.s });
    takenRight.add(c.j);
  }
  const rows: ObligationRow[] = [];
  const flags: PairFlag[] = [];
  left.forEach((x, i) => {
    const paired = pairOf.get(i);
    const y = paired === undefined ? undefined : right[paired.j];
    if (paired === undefined || y === undefined) {
      rows.push({ a: x.view, b: null, similarity: 0, flags: [] });
      return;
    }
    const rowFlags = [modalityFlag(x, y), deadlineFlag(x.deadline, y.deadline)].filter((f): f is PairFlag => f !== null);
    rows.push({ a: x.view, b: y.view, similarity: paired.s, flags: rowFlags });
    flags.push(...rowFlags);
  });
  right.forEach((y, j) => {
    if (!takenRight.has(j)) rows.push({ a: null, b: y.view, similarity: 0, flags: [] });
  });
  // Only binding ones count as missing: a permission one act spells out and the other does not is no gap.
  for (const side of ["a", "b"] as const) {
    const own = side === "a" ? left : right;
    const other = side === "a" ? right : left;
    const binding = own.filter((o) => (BINDING[o.modality] ?? 0) >= 3);
    if (binding.length === 0) continue;
    const label = side.toUpperCase();
    const otherLabel = side === "a" ? "B" : "A";
    if (other.length === 0) {
      flags.push({ kind: "no-obligations", side, message: `${label} states ${binding.length} obligation(s); ${otherLabel} states none` });
      continue;
    }
    const unmatched = binding.filter((o) => (side === "a" ? !pairOf.has(own.indexOf(o)) : !takenRight.has(own.indexOf(o))));
    if (unmatched.length === 0) continue;
    const listed = unmatched
      .slice(0, MAX_LISTED)
      .map((o) => `"${describe(o.view)}"`)
      .join("; ");
    flags.push({
      kind: "unmatched-obligation",
      side,
      message: `${unmatched.length} obligation(s) of ${label} without a counterpart in ${otherLabel}: ${listed}${unmatched.length > MAX_LISTED ? "; …" : ""}`,
    });
  }
  // Time limits printed in the text but not caught on a paired obligation still differ.
  if (!flags.some((f) => f.kind === "deadline")) {
    const tightest = (side: DiffSide): Deadline | null =>
      tightestDeadline(
        findDeadlines(side.text, side.language)
          .filter((d) => readDeadline(d).kind === "period")
          .join("; "),
      );
    const da = tightest(a);
    const db = tightest(b);
    if (da !== null && db !== null) {
      const flag = deadlineFlag(da, db);
      if (flag !== null) flags.push(flag);
    }
  }
  return { rows, flags };
}
