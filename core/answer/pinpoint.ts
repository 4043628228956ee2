// Where in a provision a sentence sits, the way lawyers pin it: "(3)(a)" in an EU article whose
// paragraphs are numbered "3." and points lettered "(a)", "(c)(1)(ii)" in a CFR section whose
// paragraphs are "(c)" → "(1)" → "(ii)". Tracked line by line through a section's text: a line that
// opens with a marker sets that level and drops the deeper ones; a sentence inherits the markers of
// the line it sits in. Without it a citation could only name the whole article.

type Level = "paragraph" | "letter" | "digit" | "roman" | "upper";

interface Marker {
  level: Level;
  value: string;
}

const EU_PARAGRAPH = /^\s*(\d{1,3})\.\s+\S/;
/** One or more markers opening a line: "(c) …", "(a)(1) …" (CFR prints a paragraph's first subparagraph on its line). */
const PAREN_MARKERS = /^\s*((?:\((?:[a-z]{1,2}|\d{1,3}|[ivxlc]{1,6}|[A-Z])\))+)\s+\S/;
const ROMAN = /^[ivxlc]+$/;
/** A line opening with a defined term, unmarked: "Covered entity means:", "Health plan means an individual or group plan …". */
const DEFINITION_LINE = /^\s*\p{Lu}[\p{L}-]*(?:\s+[\p{L}-]+){0,6}?\s+(?:means|shall mean|has the meaning)\b/u;

const ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"];

/**
 * The marker a line opens with, its level decided against the markers open so far. Letters and
 * roman numerals share characters ("(c)", "(i)", "(v)"): a roman level starts only at "(i)" under a
 * letter or a number, and continues only with the next numeral; anything else is a letter.
 */
function classify(value: string, open: readonly Marker[]): Level {
  if (/^\d+$/.test(value)) return "digit";
  if (/^[A-Z]$/.test(value)) return "upper";
  if (ROMAN.test(value)) {
    const roman = open.find((m) => m.level === "roman");
    if (roman !== undefined && ROMANS[ROMANS.indexOf(roman.value) + 1] === value) return "roman";
    const letter = open.find((m) => m.level === "letter");
    // "(i)" after "(h)" is the ninth letter.
    if (value === "i" && letter?.value !== "h" && (letter !== undefined || open.some((m) => m.level === "digit"))) return "roman";
    // "(ii)" under "(b)(1)" whose "(i)" was run into the line above ("Documentation. (i) Maintain
    // …") is a numeral; only after a double letter ("(hh)") is it one too.
    if (value.length > 1 && (letter === undefined || letter.value.length !== value.length)) return "roman";
  }
  return "letter";
}

export class PinpointTracker {
  private paragraph: string | null = null;
  private markers: Marker[] = [];

  /** Reads the next line of the section; returns the pinpoint of the sentences on it. */
  line(text: string): string | null {
    const numbered = EU_PARAGRAPH.exec(text);
    if (numbered) {
      this.paragraph = numbered[1] ?? null;
      this.markers = [];
    } else if (DEFINITION_LINE.test(text)) {
      // An unnumbered definition closes the points of the one before it: in 45 CFR 160.103,
      // "Covered entity means:" is not part of "Business associate"'s "(4)(iv)".
      this.markers = [];
    } else {
      const paren = PAREN_MARKERS.exec(text);
      for (const m of paren?.[1]?.matchAll(/\(([^)]+)\)/g) ?? []) {
        const value = m[1] ?? "";
        const level = classify(value, this.markers);
        const at = this.markers.findIndex((x) => x.level === level);
        this.markers = at >= 0 ? this.markers.slice(0, at) : this.markers;
        this.markers.push({ level, value });
      }
    }
    return this.current();
  }

  /** The numbered paragraph ("3") of the current line, if the text numbers them. */
  paragraphNumber(): string | null {
    return this.paragraph;
  }

  current(): string | null {
    const parts = [...(this.paragraph === null ? [] : [`(${this.paragraph})`]), ...this.markers.map((m) => `(${m.value})`)];
    return parts.length === 0 ? null : parts.join("");
  }
}
