// Deadlines as printed ("within 72 hours", "no later than one month after", "without undue
// delay", "entro 10 giorni") read into something two provisions can be compared by: a duration in
// hours when a number and a unit are given, "immediate" for "immediately"/"senza indugio", and
// otherwise only the words (a date, "in a timely manner"), which can differ but not be ranked.

/** "period": a time limit ("within 72 hours"); "frequency": how often ("at least every two years"). */
export type DeadlineKind = "period" | "frequency" | "immediate" | "other";

export interface Deadline {
  text: string;
  kind: DeadlineKind;
  /** For periods and frequencies: the duration in hours (working days counted as calendar days). */
  hours?: number;
}

const NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  sixty: 60,
  ninety: 90,
  uno: 1,
  due: 2,
  tre: 3,
  quattro: 4,
  cinque: 5,
  sei: 6,
  sette: 7,
  otto: 8,
  nove: 9,
  dieci: 10,
  quindici: 15,
  venti: 20,
  trenta: 30,
  quarantacinque: 45,
  sessanta: 60,
  novanta: 90,
  centoventi: 120,
  centottanta: 180,
};

const UNIT_HOURS: Array<[RegExp, number]> = [
  [/^(?:hours?|ore)$/, 1],
  [/^(?:days?|giorni|giorno)$/, 24],
  [/^(?:weeks?|settimane)$/, 24 * 7],
  [/^(?:months?|mesi|mese)$/, 24 * 30],
  [/^(?:years?|anni|anno)$/, 24 * 365],
];

const PERIOD =
  /(\d{1,4}|[a-z]+)\s+(?:(?:working|business|calendar|consecutive)\s+)?(hours?|days?|weeks?|months?|years?|ore|giorni|giorno|settimane|mesi|mese|anni|anno)\b/i;
const FREQUENCY = /\b(?:every|each|annually|yearly|quarterly|monthly|weekly|once\s+(?:a|per)|ogni|annualmente)\b/i;
const FREQUENCY_WORDS: Array<[RegExp, number]> = [
  [/\b(?:annually|yearly|annualmente)\b/i, 24 * 365],
  [/\bquarterly\b/i, 24 * 91],
  [/\bmonthly\b/i, 24 * 30],
  [/\bweekly\b/i, 24 * 7],
];
const IMMEDIATE =
  /\b(?:immediately|without\s+(?:undue\s+)?(?:further\s+)?delay|as\s+soon\s+as\s+possible|promptly|senza\s+indugio|immediatamente|tempestivamente|senza\s+ritardo)\b/i;

export function readDeadline(text: string): Deadline {
  const clean = text.replace(/\s+/g, " ").trim();
  const kind = FREQUENCY.test(clean) ? "frequency" : "period";
  const period = PERIOD.exec(clean);
  if (period) {
    const raw = (period[1] ?? "").toLowerCase();
    const amount = /^\d+$/.test(raw) ? Number(raw) : NUMBERS[raw];
    const unit = (period[2] ?? "").toLowerCase();
    const perUnit = UNIT_HOURS.find(([re]) => re.test(unit))?.[1];
    if (amount !== undefined && perUnit !== undefined) return { text: clean, kind, hours: amount * perUnit };
    // "every year": one of the unit.
    if (kind === "frequency" && perUnit !== undefined) return { text: clean, kind, hours: perUnit };
  }
  const word = FREQUENCY_WORDS.find(([re]) => re.test(clean));
  if (word) return { text: clean, kind: "frequency", hours: word[1] };
  if (IMMEDIATE.test(clean)) return { text: clean, kind: "immediate" };
  return { text: clean, kind: "other" };
}

/** The tightest of the deadlines an obligation prints (its triplet may join several with "; "): a time limit before a frequency. */
export function tightestDeadline(joined: string | null | undefined): Deadline | null {
  if (joined === null || joined === undefined || joined.trim() === "") return null;
  const all = joined
    .split(/;\s*/)
    .filter((d) => d.trim() !== "")
    .map(readDeadline);
  const shortest = (kind: DeadlineKind): Deadline | undefined => all.filter((d) => d.kind === kind).sort((x, y) => (x.hours ?? 0) - (y.hours ?? 0))[0];
  return shortest("period") ?? all.find((d) => d.kind === "immediate") ?? shortest("frequency") ?? all[0] ?? null;
}

/** Whether two deadlines speak of the same thing: a time limit and a frequency do not. */
export function comparableDeadlines(a: Deadline, b: Deadline): boolean {
  return (a.kind === "frequency") === (b.kind === "frequency");
}

/**
 * Which of two deadlines is stricter: "a", "b", "same", or null when they cannot be ranked (a
 * date against a period, "without undue delay" against "within 72 hours" — both kept by the law).
 * The shorter time limit and the more frequent duty are the stricter.
 */
export function stricterDeadline(a: Deadline, b: Deadline): "a" | "b" | "same" | null {
  if ((a.kind === "period" && b.kind === "period") || (a.kind === "frequency" && b.kind === "frequency")) {
    if (a.hours === b.hours) return "same";
    return (a.hours ?? 0) < (b.hours ?? 0) ? "a" : "b";
  }
  if (a.kind === "immediate" && b.kind === "immediate") return "same";
  if (a.kind === "other" && b.kind === "other") return a.text.toLowerCase() === b.text.toLowerCase() ? "same" : null;
  return null;
}
