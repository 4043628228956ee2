// Where in a provision a sentence sits, the way lawyers pin it: "(3)(a)" in an EU article whose
// paragraphs are numbered "3." and points lettered "(a)", "(e)(4)(ii)(B)(2)" in a CFR section whose
// paragraphs run (a) → (1) → (i) → (A) → (1). Tracked line by line through a section's text: a line
// that opens with a marker sets that level and drops the deeper ones; a sentence inherits the
// markers of the line it sits in. Without it a citation could only name the whole article.
//
// A pinpoint is printed only when every level of it was seen opening: a level starts at its first
// value ("(a)", "(1)", "(i)", "(A)") or continues one already open ("(c)" after "(b)"). A marker
// that does neither ("(ii)" opening the second part of a long section, whose "(i)" is in the
// first) is real but its parents are unknown: the sentence is cited by its provision alone, since
// "§ 164.504(ii)" names a paragraph that does not exist. The earlier parts of a provision can be
// read first (`skim`) so that its later parts keep their full pinpoints.
//
// Italian provisions letter their list items "a)" or "a." with no parenthesis before: a lettera,
// the level right under a comma ("1."), printed "Art. 14(1), lett. a)" or "Par. 7, lett. b)".

type Level = "paragraph" | "letter" | "digit" | "roman" | "upper" | "lettera";

interface Marker {
  level: Level;
  value: string;
  /** Opened by its first value or continued from an open level: its parents are known. */
  sure: boolean;
  /** A lettera's closing mark, ")" or ".": a list keeps the one it started with. */
  close?: string;
}

/** Numbering families whose grammar differs (EU articles are "1." → "(a)", CFR sections "(a)" → "(1)"). */
export type PinpointFamily = "eu" | "cfr";

export interface PinpointOptions {
  /** CFR paragraphs open with a capital ("(iii) Protect …"); "(iii) of this section" is a wrapped reference. */
  family?: PinpointFamily;
  /** The text is a later part of a provision: a marker opening it has parents in the part before. */
  continues?: boolean;
  /** The whole text the lines come from: an ambiguous marker is read by what follows it. */
  text?: string;
  /** Italian provisions: list items lettered "a)" or "a." are a level (see `marksLettere`). */
  lettere?: boolean;
}

/** The numbering family a section's label implies: "§ 164.504" is the CFR's, "Article 19" the EU's. */
export function pinpointFamily(label: string | undefined): PinpointFamily | undefined {
  if (label === undefined) return undefined;
  if (/^§/.test(label)) return "cfr";
  return /^(?:Art\.|Article|Articolo)\s/i.test(label) ? "eu" : undefined;
}

/** Italian provisions ("Art. 5", "Articolo 5", "Par. 7.2") letter their list items "a)" or "a."; EU articles print "(a)". */
export function marksLettere(label: string | undefined): boolean {
  return label !== undefined && /^(?:Art\.|Articolo|Par\.)\s/i.test(label);
}

const EU_PARAGRAPH = /^\s*(\d{1,3})\.\s+\S/;
/** A paragraph number that lost its space ("4.Il") or its dot ("4 In") in print: checked against the open paragraph. */
const LOST_MARK = /^\s*(\d{1,3})(\.|\s)(?=\p{Lu}\p{Ll})/u;
/** A numbered list's item: its text opens in lower case ("1. la descrizione del prodotto;"). */
const LIST_ITEM = /^\s*\d{1,3}\.\s+\p{Ll}/u;
/** A lettera opening a line: "b) possedere i requisiti …", "a. a quale operatore …" (not "n. 36/2023"). */
const LETTERA = /^\s*([a-z])([.)])\s+(?=[\p{L}«"“‘'(])/u;
/** The next lettera opening a line. */
const NEXT_LETTERA = /(?:^|\n)\s*([a-z])([.)])\s+(?=[\p{L}«"“‘'(])/gu;
/** A lettera run into a line after a colon or the end of an item: "… attestanti: a. a quale …", "…; c. le parti …". */
const RUN_IN_LETTERA = /(?<=[:;.])\s+([a-z])([.)])\s+(?=[\p{L}«"“‘'(])/gu;
/** A lead-in: the line before a list's first item ends with a colon ("L'ausiliario deve:"). */
const LEAD_IN = /:\s*$/;
/** An item of a list whose items end with ";" (the last, or "e"/"o", aside). */
const SEPARATED_ITEM = /;\s*(?:e|ed|o|od|oppure|ovvero|nonché)?\s*$/;
/** A line ending with the word a reference to a lettera starts with: "… comma 1, lettera" then "b), in modalità …". */
const LETTERA_REFERENCE = /(?:\blett(?:era|ere)?\.?|\bpunt[oi]|\bcomm[ai])\s*$/i;
/** A line opening with a number and a dot, spaced or not ("2. Le", "1.Per"), not a decimal ("1.1)"). */
const NUMBER_OPENS = /^\s*\d{1,3}\.(?!\d)/;
/** Letters Italian lists leave out: "i)" is followed by "l)", "v)" by "z)". */
const NOT_ITALIAN = /[jkwxy]/;
/** One paragraph marker: "(a)", "(12)", "(iv)", "(B)", "(aa)". */
export const MARKER = String.raw`\((?:[a-z]{1,2}|\d{1,3}|[ivxlc]{1,6}|[A-Z])\)`;
/**
 * One or more markers opening a line: "(c) …", "(a)(1) …", "(b) (1) …" (CFR prints a paragraph's
 * first subparagraph on its line). A capital may follow with no space: "(iv)Pursuant to …" lost
 * its space in print, and its "(v)" was then read as a letter.
 */
const PAREN_MARKERS = new RegExp(String.raw`^\s*((?:${MARKER}(?:\s(?=${MARKER}))?)+)(?:\s+|(?=\p{Lu}))(\S)`, "u");
/** A subparagraph run in after its heading and a dash: "Standard —(1) General rule." */
const DASH_RUN_IN = new RegExp(String.raw`^[^.]{0,160}?—\s*((?:${MARKER})+)\s+\p{Lu}`, "u");
const TELEPHONE = /^\s*\(\d{3}\)\s*\d{3}[-.\s]\d{4}\b/;
/** What a CFR paragraph's text opens with after its markers. */
const CFR_OPENING = /[\p{Lu}\p{N}"“‘'[]/u;
const ROMAN = /^[ivxlc]+$/;
/** A line opening with a defined term, unmarked: "Covered entity means:", "Contrary, when used to compare …, means:". */
const DEFINITION_LINE = /^\s*\p{Lu}[\p{L}-]*(?:\s+[\p{L}-]+){0,6}?(?:,[^.;]{0,200},)?\s+(?:means|shall mean|has the meaning)\b/u;
/** A line opening a quotation, and a closing quote (not an apostrophe: "the CCP’s" goes on with a letter). */
const QUOTE_OPENS = /^\s*‘/;
const QUOTE_CLOSES = /’(?!\p{L})/u;
/** A CFR section's source note, "[65 FR 50367, Aug. 17, 2000, as amended at …]", and a notice's signature line, "Issued on August 3, 2020." */
const SECTION_END_NOTE = /^\s*(?:\[\d+\s+FR\s+\d|(?:Issued|Dated)\b[^.]{0,80}\b\d{4}\.?\s*$)/;
/** A line that ends a sentence. */
const ENDS_SENTENCE = /[.!?]["”’]?\s*$/;
/** A point run into a line after the end of a sentence: "Documentation. (i) Maintain …". */
const RUN_IN_MARKER = new RegExp(String.raw`(?<=[.:;]\s+)(?:${MARKER})+\s+\p{Lu}`, "gu");

/** How deep each kind of marker sits in a family's numbering (a CFR "(a)" holds "(1)"; an EU definition "(1)" holds "(a)"). */
const ORDER: Record<PinpointFamily, Record<Level, number>> = {
  // The CFR prints no lettera: its place is a formality.
  cfr: { paragraph: -1, letter: 0, digit: 1, roman: 2, upper: 3, lettera: 0 },
  // An Italian article's lettera sits where an EU article's point does: right under the comma.
  eu: { paragraph: -1, digit: 0, letter: 1, roman: 2, upper: 3, lettera: 1 },
};

/** Most values a list jumps over (reserved or repealed paragraphs) before a number is no marker of it. */
export const MAX_JUMP = 5;
/** How many numerals of a list a print may lose before the next one is read as a letter instead. */
const MISSED_NUMERALS = 2;
/** Roman numerals as lists print them, in order. */
export const ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"];
const FIRST: Record<Exclude<Level, "paragraph">, string> = { letter: "a", digit: "1", roman: "i", upper: "A", lettera: "a" };

/** The value after `value` at its level ("b" after "a", "aa" after "z", "iv" after "iii"). */
function successor(level: Level, value: string): string | undefined {
  switch (level) {
    case "digit":
    case "paragraph":
      return String(Number(value) + 1);
    case "roman":
      return ROMANS[ROMANS.indexOf(value) + 1];
    case "upper":
      return value === "Z" ? undefined : String.fromCharCode(value.charCodeAt(0) + 1);
    case "lettera":
      return value === "z" ? undefined : String.fromCharCode(value.charCodeAt(0) + 1);
    case "letter":
      // CFR runs past "z" with doubled letters: "(aa)", "(bb)".
      if (value === "z") return "aa";
      if (value.length === 2 && value[0] === value[1]) return value[0] === "z" ? undefined : String.fromCharCode(value.charCodeAt(0) + 1).repeat(2);
      return value.length === 1 ? String.fromCharCode(value.charCodeAt(0) + 1) : undefined;
  }
}

/** Whether lettera `value` follows `open` in its list: the next letter, or the next one of the Italian alphabet ("l)" after "i)"). */
function continuesLettera(open: string, value: string): boolean {
  let next = successor("lettera", open);
  if (next === value) return true;
  while (next !== undefined && NOT_ITALIAN.test(next)) next = successor("lettera", next);
  return next === value;
}

/** A pinpoint as a citation prints it: a lettera reads as Italian writes it, "(1)(lett. b)" → "(1), lett. b)". */
export function printPinpoint(pinpoint: string): string {
  return pinpoint.replace(/\(lett\. ([a-z])\)/g, ", lett. $1)");
}

/** The next marker or numbered paragraph opening a line. */
const NEXT_MARKER = /(?:^|\n)\s*(?:\(([^)\s]{1,6})\)|(\d{1,3})\.\s)/g;
/** The next "N." opening a line. */
const NEXT_NUMBER = /(?:^|\n)\s*(\d{1,3})\.\s/g;
/** The next "(ii)" or "(j)" opening a line or a sentence. */
const NEXT_II_OR_J = /(?:^|\n|[.:;]\s)\s*\((ii|j)\)/g;

/** What follows an ambiguous "(i)" in the text: its "(ii)" (a numeral) or the letter "(j)" first. */
type Ahead = () => "roman" | "letter" | null;

/**
 * The marker a line opens with, its level decided against the markers open so far. Letters and
 * roman numerals share characters ("(c)", "(i)", "(v)"): a roman level starts only at "(i)" under a
 * letter or a number, and continues only with the next numeral; anything else is a letter.
 */
function classify(value: string, open: readonly Marker[], next?: string, ahead?: Ahead, underParagraph = false): Level {
  if (/^\d+$/.test(value)) return "digit";
  if (/^[A-Z]$/.test(value)) return "upper";
  if (ROMAN.test(value)) {
    const roman = open.findLast((m) => m.level === "roman");
    if (roman !== undefined && ROMANS[ROMANS.indexOf(roman.value) + 1] === value) return "roman";
    // Rule "a numeral continues its list past one print lost": "(v)" two after an open "(iii)" is
    // the list's fifth point, not a letter twenty places past the open "(a)".
    const letter = open.findLast((m) => m.level === "letter");
    const gap = roman === undefined ? -1 : ROMANS.indexOf(value) - ROMANS.indexOf(roman.value);
    const letterGap = letter === undefined || letter.value.length !== 1 || value.length !== 1 ? Infinity : value.charCodeAt(0) - letter.value.charCodeAt(0);
    if (gap > 1 && gap <= MISSED_NUMERALS + 1 && letterGap > 1) return "roman";
    if (value === "i") {
      // "(i)(1)" is the ninth letter: a numeral holds no number below it.
      if (next !== undefined && /^\d+$/.test(next)) return "letter";
      // "(i)" right after "(h)" is the ninth letter. Below "(h)(1)" it may be either: what follows
      // decides, "(ii)" or "(j)" (45 CFR 164.514(h)(1)(i), which was cited as "§ 164.514(i)"; 14
      // CFR 39.13(h)(10) followed by the letter "(i)").
      const afterH = letter?.value === "h" && (open.at(-1)?.level === "letter" || (ahead?.() ?? "letter") === "letter");
      if (!afterH && (letter !== undefined || open.some((m) => m.level === "digit"))) return "roman";
      // Rule "a paragraph may number its points": with no point lettered, "(i)" followed by "(ii)"
      // opens numerals right under the paragraph (DORA Art. 31(8); Art. 36(1), whose second
      // subparagraph lists "(i)" to "(iv)" after the first's "(a)" and "(b)" closed).
      if (underParagraph && letter === undefined && ahead?.() === "roman") return "roman";
    }
    // "(ii)" under "(b)(1)" whose "(i)" was run into the line above ("Documentation. (i) Maintain
    // …") is a numeral; only after a double letter ("(hh)") is it one too.
    if (value.length > 1 && (letter === undefined || letter.value.length !== value.length)) return "roman";
  }
  return "letter";
}

export class PinpointTracker {
  private paragraph: string | null = null;
  private markers: Marker[] = [];
  /** Inside a definition ("Covered entity means:"): markers past this many belong to the definition, not the provision. */
  private definitionBase: number | null = null;
  private readonly family: PinpointFamily | undefined;
  private readonly continues: boolean;
  private skimming = false;
  private readonly text: string | undefined;
  /** The line read last opened with a marker and ended a sentence: a list's last point. */
  private pointClosed = false;
  /** The open markers belong to a list a later subparagraph closed: not printed, resumed only by their successor. */
  private listClosed = false;
  /** Where in `text` the line being read ends: what follows it starts there. */
  private readTo = 0;
  /** Inside quoted text (an amending article's inserted provisions): its numbering is the other act's. */
  private quoting = false;
  /** A numbered item of a document with no known numbering family ended a sentence. */
  private itemClosed = false;
  /** The open number is a list's item (its text opens in lower case: "1. la descrizione del prodotto;"), not a paragraph. */
  private listItem = false;
  /** That item's list was closed by an unmarked sentence after it: the number is not printed, and only its successor reopens it. */
  private paragraphClosed = false;
  /** Italian provisions: lines opening "a)" or "a." may open a lettera. */
  private readonly lettere: boolean;
  /** The line read before the current one: a lettera list's lead-in. */
  private lastLine = "";
  /** A line opened with a number not read as a comma: the letteras after it are not printed. */
  private commaUnknown = false;
  /** A lettera list whose items ran into a line that opens none (a lead-in's): the next line's lettera may continue it. */
  private runInList: Marker | null = null;

  constructor(options: PinpointOptions = {}) {
    this.family = options.family;
    this.continues = options.continues ?? false;
    this.text = options.text;
    this.lettere = options.lettere ?? false;
  }

  /** Reads the next line of the section; returns the pinpoint of the sentences on it (`current`). */
  line(text: string): string | null {
    if (this.text !== undefined && !this.skimming) {
      const at = this.text.indexOf(text, Math.max(0, this.readTo - text.length));
      if (at >= 0) this.readTo = Math.max(this.readTo, at + text.length);
    }
    const pinpoint = this.readLine(text);
    // A line holding two letteras is neither's.
    const mixed = this.lettere && this.runIn(text);
    this.lastLine = text;
    return mixed ? null : pinpoint;
  }

  /**
   * Whether the next marker printed after the line being read continues an open list: then the
   * unmarked lines between belong to the point before ("For the purposes of the first subparagraph
   * of this point, …" between DORA Art. 58(1)(c) and (d)).
   */
  private listGoesOn(): boolean {
    const value = this.nextAfterLine(NEXT_MARKER)?.[1];
    return value !== undefined && this.markers.some((m) => m.level !== "lettera" && successor(m.level, m.value) === value);
  }

  /** Whether a later line opens the lettera after the open one, with its closing mark. */
  private letteraGoesOn(): boolean {
    const open = this.markers.findLast((m) => m.level === "lettera");
    const next = this.nextAfterLine(NEXT_LETTERA);
    return open !== undefined && next !== null && next[2] === open.close && continuesLettera(open.value, next[1] ?? "");
  }

  /** Whether a later line numbers the item after the open one ("17." after "16."). */
  private numberGoesOn(): boolean {
    const value = this.nextAfterLine(NEXT_NUMBER)?.[1];
    return value !== undefined && this.paragraph !== null && Number(value) === Number(this.paragraph) + 1;
  }

  /** The first "(ii)" or "(j)" opening a line or sentence after the one being read. */
  private readonly ahead: Ahead = () => {
    const next = this.nextAfterLine(NEXT_II_OR_J);
    return next === null ? null : next[1] === "ii" ? "roman" : "letter";
  };

  /** The first match of `pattern` (global) in the text after the line being read; none while skimming another text. */
  private nextAfterLine(pattern: RegExp): RegExpExecArray | null {
    if (this.text === undefined || this.skimming) return null;
    pattern.lastIndex = this.readTo;
    return pattern.exec(this.text);
  }

  private readLine(text: string): string | null {
    // Rule "quoted text is another act's": an amending article quotes the provisions it inserts
    // ("‘1. A trade repository shall …’;", then "2. …" inside the same quotation); their numbers and
    // points are the amended act's, and the sentences belong to the point that quotes them.
    if (this.quoting) {
      if (QUOTE_CLOSES.test(text)) this.quoting = false;
      return this.current();
    }
    if (QUOTE_OPENS.test(text)) {
      this.quoting = !QUOTE_CLOSES.test(text.slice(text.indexOf("‘") + 1));
      return this.current();
    }
    // Rule "a section's closing note is the section's": a CFR source note or a notice's signature
    // after the last paragraph is not part of that paragraph ("§ 162.1601(b)(2)" was given to
    // "[65 FR 50367, Aug. 17, 2000, …]").
    if (SECTION_END_NOTE.test(text)) {
      if (this.markers.length > 0) this.listClosed = true;
      if (this.family === undefined && this.paragraph !== null) this.paragraphClosed = true;
      return this.current();
    }
    // A CFR section prints no "1." paragraphs: such a line is a list entry ("51. To enforce …").
    const numbered = this.family === "cfr" ? null : (EU_PARAGRAPH.exec(text) ?? this.markLost(text));
    // Rule "a number continues its list": "8. CONTROLLO QUALITA'" printed in an article whose
    // paragraphs were never numbered is the next article's heading, not its paragraph 8.
    const readable = numbered !== null && this.continuesList(this.paragraph, numbered[1] ?? "");
    // Rule "a lettera sits under its comma": a number that is not read as one ("1.Per gli appalti
    // …", its space lost in print) leaves the comma of the letteras after it unknown.
    if (this.lettere && NUMBER_OPENS.test(text)) this.commaUnknown = !readable;
    if (numbered && !readable) return this.current();
    if (numbered) {
      this.paragraph = numbered[1] ?? null;
      this.markers = [];
      this.runInList = null;
      this.listClosed = false;
      this.paragraphClosed = false;
      this.itemClosed = ENDS_SENTENCE.test(text);
      this.listItem = LIST_ITEM.test(text);
      this.definitionBase = null;
      return this.current();
    }
    // Rule "a sentence after a numbered list's last item is the provision's" (documents of no known
    // family, where "1." … "16." number a list, not paragraphs): "16. (eventuale) altra
    // documentazione …." then "N.B. Nell'ambito …" and the text after it are not item 16.
    const itemClosed = this.itemClosed;
    this.itemClosed = false;
    if (
      (this.family === undefined || this.listItem) &&
      itemClosed &&
      this.paragraph !== null &&
      this.markers.length === 0 &&
      /^\s*\p{Lu}/u.test(text) &&
      !PAREN_MARKERS.test(text) &&
      !this.numberGoesOn()
    ) {
      this.paragraphClosed = true;
      return this.current();
    }
    if (this.lettere && this.placeLettera(text)) {
      this.pointClosed = false;
      return this.current();
    }
    if (DEFINITION_LINE.test(text)) {
      // An unnumbered definition closes the points of the one before it: in 45 CFR 160.103,
      // "Covered entity means:" is not part of "Business associate"'s "(4)(iv)". Its own points
      // are the definition's ("(1) A health plan."), not paragraphs of the section.
      // The definitions sit in the paragraph open before the first of them ("(a) Definitions."), if its parents are known.
      if (this.definitionBase === null) {
        const known = this.markers.findIndex((m) => !m.sure);
        this.definitionBase = known < 0 ? this.markers.length : known;
      }
      this.markers = this.markers.slice(0, this.definitionBase);
      return this.current();
    }
    const paren = PAREN_MARKERS.exec(text);
    const closedPoint = this.pointClosed;
    this.pointClosed = paren !== null && ENDS_SENTENCE.test(text);
    // Rule "a line after a list's closing point belongs to the paragraph": in an EU article a
    // point ends with ";" until the last, which ends with "."; an unmarked line after it is the
    // paragraph's next subparagraph ("With regard to point (h) of the first subparagraph, the
    // processor shall …" is GDPR Art. 28(3), not 28(3)(h)).
    // The list is closed, not forgotten: "(b)" after such a line continues it (DORA Art. 20's
    // "(a) …." then "When developing …" then "(b) …").
    if (paren === null && closedPoint && this.family === "eu" && /^\s*\p{Lu}/u.test(text) && this.markers.length > 0 && !this.listGoesOn())
      this.listClosed = true;
    if (paren === null && this.lettere) this.closeLettere(text);
    // "(202) 714-6030": a telephone number wrapped to the start of a line.
    if (paren === null || TELEPHONE.test(text)) return this.current();
    if (this.family === "cfr" && !CFR_OPENING.test(paren[2] ?? "")) return this.current();
    this.placeAll(paren[1] ?? "");
    // "(c) Implementation specifications: Content of notification —(1) Elements.": the eCFR runs a
    // paragraph's first subparagraph in after a dash.
    const dashed = this.family === "cfr" ? DASH_RUN_IN.exec(text.slice(paren[0].length - 1)) : null;
    this.placeAll(dashed?.[1] ?? "");
    return this.current();
  }

  /** Reads text that comes before the section (its provision's earlier parts), for their open markers. */
  skim(text: string): void {
    // What is skimmed is the provision's beginning: it continues nothing.
    this.skimming = true;
    for (const line of text.split("\n")) {
      this.line(line);
      for (const m of line.matchAll(RUN_IN_MARKER)) this.line(line.slice(m.index));
    }
    this.skimming = false;
  }

  /**
   * A lettera opening the line ("b) possedere …"), placed right under the comma or item open;
   * false when the line opens none. Rule "a lettera opens a list": "a" opens one only after a
   * lead-in ending with ":" or as an item ending with ";", so "a." opening a sentence by chance, or
   * "b)" of a wrapped "… comma 1, lettera" / "b), in modalità …", is no marker; inside an open
   * item, an "a." list is the item's own and its lines stay the item's. Rule "a lettera continues
   * its list": the next letter, with the closing mark the list started with.
   */
  private placeLettera(text: string): boolean {
    const m = LETTERA.exec(text);
    if (m === null || LETTERA_REFERENCE.test(this.lastLine)) return false;
    const value = m[1] ?? "";
    const close = m[2] ?? "";
    const open = this.runInList ?? this.markers.find((x) => x.level === "lettera");
    if (open !== undefined && open.close === close && continuesLettera(open.value, value)) {
      this.markers = [{ level: "lettera", value, sure: open.sure, close }];
    } else if (value === "a" && (open === undefined || this.listClosed) && (LEAD_IN.test(this.lastLine) || SEPARATED_ITEM.test(text))) {
      this.markers = [{ level: "lettera", value, sure: !this.commaUnknown, close }];
    } else return false;
    this.listClosed = false;
    this.runInList = null;
    return true;
  }

  /**
   * Letteras run into the line, where print lost a line break. A first item after a lead-in
   * ("… attestanti: a. a quale …") is kept for the line after it, which its "b." continues; items
   * run into the line of the one before ("b. l'impegno …; c. le parti …") mix on one line, and what
   * follows cannot be told apart either: the list goes on unprinted. True when the line mixes items.
   */
  private runIn(text: string): boolean {
    let mixed = false;
    for (const r of text.matchAll(RUN_IN_LETTERA)) {
      const value = r[1] ?? "";
      const close = r[2] ?? "";
      const before = text.slice(0, r.index);
      if (LETTERA_REFERENCE.test(before)) continue;
      const pending = this.runInList;
      const open = pending ?? (this.listClosed ? undefined : this.markers.find((m) => m.level === "lettera"));
      if (open !== undefined && open.close === close && continuesLettera(open.value, value)) {
        const marker: Marker = { level: "lettera", value, sure: false, close };
        if (pending !== null) this.runInList = marker;
        else {
          this.markers = [marker];
          mixed = true;
        }
      } else if (value === "a" && open === undefined && before.endsWith(":")) this.runInList = { level: "lettera", value, sure: !this.commaUnknown, close };
    }
    return mixed;
  }

  /**
   * Rule "a line after a lettera list's last item is the provision's": an unmarked line opening
   * with a capital (or a comma's number) after a line that ended a sentence or an item closes the
   * list, unless a later line opens its next lettera. Lines after one ending with ":" (the item's
   * own sub-list) and bullets stay in the item. The list is closed, not forgotten: its next
   * lettera reopens it.
   */
  private closeLettere(text: string): void {
    if (this.listClosed || !this.markers.some((m) => m.level === "lettera")) return;
    // "4.Il documento …": a comma whose number lost its space in print opens with a digit.
    if (!/[.;!?]["”’)]?\s*$/.test(this.lastLine) || !/^\s*(?:\p{Lu}|\d{1,3}\.(?!\d))/u.test(text) || this.letteraGoesOn()) return;
    this.listClosed = true;
  }

  /** A chain of markers ("(a)(1)(i)"), each read knowing the one after it. */
  private placeAll(chain: string): void {
    const values = [...chain.matchAll(/\(([^)]+)\)/g)].map((m) => m[1] ?? "");
    values.forEach((value, i) => this.place(value, values[i + 1]));
  }

  private place(value: string, next?: string): void {
    if (this.listClosed) {
      const kind = classify(value, this.markers, next, this.ahead);
      if (!this.markers.some((m) => m.level === kind && successor(kind, m.value) === value)) this.markers = [];
      this.listClosed = false;
    }
    const underParagraph = this.family === "eu" && this.paragraph !== null && !this.paragraphClosed;
    const level = classify(value, this.markers, next, this.ahead, underParagraph);
    // The deepest open marker of this level that the value continues ("(2)" after "(B)(1)" is the
    // fifth level's, not the second's), else the deepest of this level at all (a jump: "(e)" after
    // "(a)" where "(b)-(d) [Reserved]").
    let at = -1;
    let continues = false;
    for (let i = this.markers.length - 1; i >= 0; i--) {
      const m = this.markers[i];
      if (m?.level !== level) continue;
      if (successor(level, m.value) === value) {
        at = i;
        continues = true;
        break;
      }
      if (at < 0) at = i;
    }
    const opens = value === FIRST[level === "paragraph" ? "digit" : level];
    if (opens && !continues) {
      // A level's first value opens a deeper level, or restarts the list it follows.
      const restart = this.markers.at(-1)?.level === level;
      const parents = restart ? this.markers.slice(0, -1) : this.markers;
      // With nothing open, only the family's top level starts a pinpoint: a CFR "(1)" before any "(a)" is a list's.
      // (An EU article without numbered paragraphs lists its points at once: "Art. 2(a)".)
      const rootless = parents.length === 0 && this.family === "cfr" && ORDER.cfr[level] > 0;
      this.markers = [...parents, { level, value, sure: parents.every((m) => m.sure) && !rootless && !this.skipsLevel(parents.at(-1), level) }];
      return;
    }
    // "(835) Infrastructure Rule …" wrapped to a line's start under "(c)(3)" names a transaction, it
    // is no marker: a list jumps over a few reserved numbers, not hundreds.
    // A list with none of its numbers open yet starts at 1.
    if (!continues && level === "digit" && Number(value) - (at >= 0 ? Number(this.markers[at]?.value) : 1) > MAX_JUMP) return;
    if (at >= 0) {
      // Continued or jumped to, it has the parents of the marker it replaces (a marker is sure only
      // when its parents are).
      const sure = this.markers[at]?.sure ?? false;
      if (this.definitionBase !== null && at < this.definitionBase) this.definitionBase = null;
      this.markers = [...this.markers.slice(0, at), { level, value, sure }];
      return;
    }
    // Neither first nor open: its parents are not all in the text read (a part's first line, text
    // out of order). The levels above it in the family's order stay open; it is not printed.
    const order = this.family === undefined ? undefined : ORDER[this.family];
    let kept = 0;
    if (this.definitionBase !== null) kept = this.definitionBase;
    else if (order !== undefined) while (kept < this.markers.length && order[this.markers[kept]?.level ?? level] < order[level]) kept++;
    // The first marker of a whole provision at its family's top level ("(b)" where "(a)" was not
    // printed as a line) has no parents to miss.
    const parents = this.markers.slice(0, kept);
    // With no known family only a letter may stand at the top: a "(iii)" opening a line of prose
    // whose "(i)" and "(ii)" ran inline ("… is to: (i) determine …; (ii) identify …; and") is no point.
    const top = parents.length === 0 && (this.skimming || !this.continues) && (order === undefined ? level === "letter" : order[level] === 0);
    // Its parents are known when the levels kept end right above its own ("(ii)" under "(b)(1)"
    // whose "(i)" was run into the line above).
    const parent = parents.at(-1);
    const under = order !== undefined && parent !== undefined && parents.every((m) => m.sure) && order[parent.level] === order[level] - 1;
    this.markers = [...parents, { level, value, sure: top || under }];
  }

  /**
   * Rule "a paragraph's number may lose its mark in print": "4.Il documento …" (its space lost) or
   * "4 In sede di …" (its dot lost) right after paragraph 3 is paragraph 4, when no dot is left
   * only if the next numbered line is 5. Any other number opening a line is text.
   */
  private markLost(text: string): RegExpExecArray | null {
    const lost = LOST_MARK.exec(text);
    if (lost === null || this.paragraph === null || Number(lost[1]) !== Number(this.paragraph) + 1) return null;
    if (lost[2] === ".") return lost;
    const next = this.nextAfterLine(NEXT_NUMBER)?.[1];
    return next !== undefined && Number(next) === Number(lost[1]) + 1 ? lost : null;
  }

  /** Whether a numbered paragraph can follow the one open: the first, or a few past the last. */
  private continuesList(open: string | null, value: string): boolean {
    const n = Number(value);
    if (n === 1) return true;
    // A later part of a provision read without its earlier parts starts wherever it starts; an
    // article's "1." may be run into its heading line.
    if (open === null) return (this.continues && !this.skimming) || n <= MAX_JUMP + 1;
    const gap = n - Number(open);
    return gap >= 1 && gap <= MAX_JUMP;
  }

  /**
   * "(A)" right under "(c)": the "(1)" and "(i)" between them were not seen, so it cannot be pinned.
   * One level may be skipped: 45 CFR 164.404(c)(1) lists "(A)" to "(E)" with no "(i)".
   */
  private skipsLevel(parent: Marker | undefined, level: Level): boolean {
    if (parent === undefined || this.family === undefined) return false;
    const order = ORDER[this.family];
    return order[level] > order[parent.level] + 2;
  }

  /** The numbered paragraph ("3") of the current line, if the text numbers them. */
  paragraphNumber(): string | null {
    return this.paragraph;
  }

  /** The pinpoint of the current line as a citation may print it: null unless every level of it is known. */
  current(): string | null {
    const open = this.listClosed ? [] : this.markers;
    const shown = this.definitionBase === null ? open : open.slice(0, this.definitionBase);
    return shown.every((m) => m.sure) ? this.join(shown) : null;
  }

  /**
   * Every marker open at the current line, known parents or not, a definition's own included: which
   * sentences belong to one point ("(ii)" and the sentences under it), not what to print.
   */
  structure(): string | null {
    return this.join(this.listClosed ? [] : this.markers);
  }

  private join(markers: readonly Marker[]): string | null {
    const paragraph = this.paragraphClosed ? null : this.paragraph;
    const parts = [...(paragraph === null ? [] : [`(${paragraph})`]), ...markers.map((m) => (m.level === "lettera" ? `(lett. ${m.value})` : `(${m.value})`))];
    return parts.length === 0 ? null : parts.join("");
  }
}
