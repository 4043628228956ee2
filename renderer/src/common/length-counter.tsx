import { LIMITS } from "../../../core/contract/contract.ts";

// A pasted finding longer than a question may be must not be cut silently (its question is often
// at the end): the box takes it whole, this counter says how far over it is, and asking waits
// until it is short enough.

/** From this share of the limit on, the count is shown. */
const SHOW_FROM = 0.9;

const QUERY_LIMIT = LIMITS.query;

export function overLimit(text: string): boolean {
  return text.length > QUERY_LIMIT;
}

/** Whether the count is worth showing yet. */
export function showsLength(text: string): boolean {
  return text.length >= SHOW_FROM * QUERY_LIMIT;
}

export function LengthCounter({ text, what, testId }: { text: string; what: string; testId: string }) {
  if (!showsLength(text)) return null;
  const over = overLimit(text);
  return (
    <span className={over ? "length-counter over" : "length-counter"} data-testid={testId} role={over ? "alert" : undefined}>
      {text.length.toLocaleString("en")} / {QUERY_LIMIT.toLocaleString("en")} characters
      {over ? ` — shorten the ${what} by ${(text.length - QUERY_LIMIT).toLocaleString("en")} to ask it` : ""}
    </span>
  );
}
