// What the sentence answering a question of a given type says in so many words: a question about
// a time limit is answered by the sentence printing "within 72 hours" or "entro 30 giorni", a
// definition by "'personal data' means …", a frequency by "at least once a year". The extractive
// answer leads with such a sentence from the operative provision (extractive-answer.ts). English
// and Italian, as the corpus is.

import type { AnswerType, YesNoModality } from "../../model/question-analysis-types.ts";
import { PARTIES, escapeRegExp, formsOf } from "../../text/index.ts";

/** Answer types (question-analysis.ts) with cues; "other" ranks by relevance alone. */
export type CuedType = Exclude<AnswerType, "other">;

const DURATION = String.raw`\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|ninety|un[oa]?|due|tre|quattro|cinque|sei|sette|otto|dieci|quindici|venti|trenta|sessanta|novanta`;
const UNIT = String.raw`hours?|days?|working days|business days|weeks?|months?|years?|calendar days|ore|giorni|settimane|mesi|anni`;

/** The table's party forms a cue takes, as regex alternatives (spaces as written; the cues ignore case). */
function partyForms(field: "cue" | "recipient"): string {
  return PARTIES.flatMap((party) => formsOf(party, party[field]))
    .map(escapeRegExp)
    .join("|");
}

const CUES: Record<CuedType, RegExp[]> = {
  deadline: [
    // A time limit in so many words: "within 72 hours", "in no case later than 60 calendar days",
    // "without undue delay", or one set elsewhere ("within the time limits to be laid down in
    // accordance with Article 20": DORA's own answer to "how quickly").
    // Rule "how soon is not how long": a period something lasts ("a conspicuous posting for a
    // period of 90 days", "valid for 180 days") cues a deadline question only weakly; it answers
    // "how long" (asksForLength), where any stated period is the answer.
    new RegExp(
      String.raw`\b(?:within|no later than|not later than|later than|at the latest|before|by|after|entro|non oltre|prima di|dopo|almeno)\b[^.;]{0,40}\b(?:${DURATION})\s*(?:\(\d+\)\s*)?(?:${UNIT})\b|\bwithin the (?:time limits?|deadlines?|periods?)\b|\bwithout (?:undue|unreasonable) delay\b|\bsenza ingiustificato ritardo\b|\bentro i termini\b`,
      "i",
    ),
    new RegExp(String.raw`\b(?:${DURATION})\s*(?:\(\d+\)\s*)?(?:${UNIT})\b`, "i"),
    /\b(?:without undue delay|immediately|promptly|as soon as possible|forthwith|senza ingiustificato ritardo|tempestivamente|immediatamente)\b/i,
    /\b(?:deadlines?|time[- ]limits?|termin[ei]|scadenz[ae])\b/i,
  ],
  // Rule "a frequency is a period": "at least yearly", "every three years", "con cadenza annuale"
  // say how often; "periodically", "regularly" only that there is a rhythm, so they cue less.
  frequency: [
    new RegExp(
      String.raw`\b(?:(?:at least|no less than|not less than)\s+(?:once|twice)|annually|yearly|semi-?annually|biennially|quarterly|monthly|weekly|daily|twice a year|once (?:a|per|every) (?:year|quarter|month|week|day)|every (?:year|quarter|month|week|day|(?:${DURATION}) (?:years|months|weeks|days))|almeno una volta|annualmente|ogni anno|ogni (?:${DURATION}) (?:anni|mesi|settimane|giorni)|con cadenza (?:annuale|semestrale|trimestrale|mensile|settimanale|giornaliera|biennale))\b`,
      "i",
    ),
    /\b(?:periodically|on a regular basis|regularly|at regular intervals|biennial|periodicamente|con cadenza|a intervalli regolari)\b/i,
  ],
  amount: [
    /(?:€|EUR|USD|\$|euro)\s?\d[\d.,]*/i,
    // "%" then a space has no word boundary after it: "del 10% del valore" went uncued.
    /\b\d[\d.,]*\s*(?:%|(?:per cent|percent|per cento|euro|EUR|million|thousand|milioni)\b)/i,
    /\b(?:threshold|ceiling|maximum|minimum|up to|not exceeding|importo|soglia|massimo|minimo)\b[^.;]{0,40}\d/i,
  ],
  // A party named in so many words, any case: the table's cue forms (core/text/parties.ts).
  party: [new RegExp(String.raw`\b(?:${partyForms("cue")})\b`, "i")],
  definition: [
    /['‘’"“”«][^'‘’"“”»]{2,80}['‘’"“”»]\s+(?:means|shall mean|is defined as|refers to)\b/i,
    /\b(?:means|shall mean|is defined as|for the purposes? of this|si intende|si intendono|per\s+['‘’"“”«])/i,
  ],
  "yes-no": [
    /\b(?:shall not|may not|must not|is prohibited|are prohibited|is not permitted|may|is permitted|are permitted|unless|provided that|only if|only where|except|non può|non possono|può|possono|è vietat[oa]|salvo|purché|a condizione che)\b/i,
  ],
  permission: [
    /\b(?:may|is permitted|are permitted|is allowed|may be|può|possono|è consentit[oa])\b/i,
    /\b(?:unless|provided that|only if|only where|salvo|purché|a condizione che)\b/i,
  ],
  prohibition: [
    /\b(?:shall not|may not|must not|is prohibited|are prohibited|is not permitted|no\s+\w+\s+shall|non può|non possono|è vietat[oa]|sono vietat[ie])\b/i,
  ],
  requirements: [/\b(?:shall|must|is required to|are required to|implement|deve|devono|è tenut[oa])\b/i, /:\s*$/],
  procedure: [/\b(?:first|then|thereafter|subsequently|following|steps?|procedure|process|prima|successivamente|procedura)\b/i, /:\s*$/],
  "application-date": [
    /\b(?:shall apply from|applies from|shall apply as from|shall enter into force|enters into force|entry into force|effective date|compliance date|si applica a decorrere|entra in vigore)\b/i,
    /\b\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre)\s+\d{4}\b/i,
  ],
  scope: [
    /\b(?:this (?:Regulation|Directive|part|subpart|section|rule) (?:applies|shall apply|does not apply|shall not apply)|shall not apply to|does not apply to|applies to|is exempt|are exempt|exempted|si applica|non si applica|sono esclus[ie])\b/i,
  ],
};

function isCued(type: string): type is CuedType {
  return Object.hasOwn(CUES, type);
}

/**
 * The recipient a "… and to whom?" asks for: a party after "to" ("to the relevant competent
 * authority", "to the Secretary"), not any party the sentence names (its subject is one too).
 * The parties are the table's recipient forms (core/text/parties.ts).
 */
const RECIPIENT = new RegExp(
  String.raw`\b(?:to|with|alla|all['’]|al|agli|presso)\s+(?:the\s+|la\s+|il\s+|l['’])?(?:(?:relevant|competent|supervisory|national|lead|appropriate|designated|affected)\s+)*(?:${partyForms("recipient")})\b`,
  "i",
);

/** Whether the sentence says what a further question asks ("… and to whom?" → the recipient it names). */
export function alsoCued(type: string, text: string): boolean {
  return type === "party" ? RECIPIENT.test(text) : cueStrength(type, text) > 0;
}

// Rule "how long asks for a length of time": "How long can the authority keep the decision
// online?", "how many days do we have?" are answered by a stated period ("shall not exceed five
// years", "no later than 60 days"); "without undue delay" says how soon, not how long.
const ASKS_LENGTH =
  /\b(?:how long|for how many|how many (?:days|hours|weeks|months|years|business days|working days)|quanto tempo|per quanto|per quanti|quanti (?:giorni|mesi|anni|ore))\b/i;
const STATED_LENGTH = new RegExp(String.raw`\b(?:${DURATION})(?:\s*\(\d+\))?[\s-]*(?:${UNIT})\b`, "i");

/** A sentence that asks rather than states (it ends with a question mark, perhaps before a closing quote or bracket). */
const ASKED = /\?\s*["'”’)\]]?\s*$/;

/** Whether the question asks for a length of time rather than how soon ("how long", "how many days"). */
export function asksForLength(question: string): boolean {
  return ASKS_LENGTH.test(question);
}

/**
 * How strongly the sentence says what a question of this type asks: 0 (nothing), 1 (a cue), 2 (the
 * first, strongest cue). `length`: the question asks how long, and only a stated period answers it.
 */
export function cueStrength(type: string | undefined, text: string, length = false, modality?: YesNoModality): number {
  if (type === undefined || !isCued(type)) return 0;
  // Rule "a question is not an answer": a guide's checklist asks "How frequently is the plan to
  // be tested (e.g., annually)?"; its period is an example, not what any provision requires.
  if (ASKED.test(text)) return 0;
  // Rule "whether one must is answered by what one shall": "Do we have to keep a log of …?" is
  // answered by the duty ("The controller shall document …"); an exception or a permission
  // ("may", "unless") is the yes/no question's weaker cue.
  if (type === "yes-no" && modality === "obligation") return DUTY.test(text) ? 2 : CUES["yes-no"].some((re) => re.test(text)) ? 1 : 0;
  if (type === "deadline" && length) return STATED_LENGTH.test(text) ? 2 : 0;
  const cues = CUES[type];
  // "From what date …?": the sentence naming the date ("It shall apply from 17 January 2025.")
  // answers it; "shall enter into force on the twentieth day following …" only points at one.
  if (type === "application-date") return cues[0]?.test(text) && cues[1]?.test(text) ? 2 : cues.some((re) => re.test(text)) ? 1 : 0;
  if (cues[0]?.test(text)) return 2;
  return cues.some((re) => re.test(text)) ? 1 : 0;
}

/**
 * A duty stated in so many words, or denied: what answers "do we have to …?". Rule "a duty denied
 * answers whether one must": "A special flight permit is not required to …", "need not" answer
 * "do we need a permit?" as surely as "shall" does.
 */
const DUTY =
  /\b(?:shall|must|(?:is|are) (?:not )?required\b|need not|is obliged to|are obliged to|has to|have to|deve|devono|tenut[oaie] a|obbligat[oaie] a|non (?:è|sono) richiest[oaie]|non (?:è|sono) necessari[oaie])\b/i;

/** Yes/no from a sentence answering "can / may / must … ?": "no" for a prohibition, "conditional" with a condition. */
export function verdictOf(text: string): "yes" | "no" | "conditional" | null {
  if (/\b(?:unless|provided that|only if|only where|except where|salvo che|purché|a condizione che|solo se)\b/i.test(text)) return "conditional";
  if (
    /\b(?:shall not|may not|must not|is prohibited|are prohibited|is not permitted|are not permitted|non può|non possono|è vietat[oa]|sono vietat[ie])\b/i.test(
      text,
    )
  )
    return "no";
  if (/\b(?:may|is permitted|are permitted|is allowed|può|possono|è consentit[oa])\b/i.test(text)) return "yes";
  return null;
}

// Lines of a table of contents ("Article 19 Reporting of major incidents ....... 41"), an index, or
// a table cut mid-cell ("…Emergency M") are not provisions: they name or list what the text says.
const DOT_LEADERS = /(?:\.\s?){4,}|…{2,}|_{4,}/;
const TRAILING_PAGE = /\s\d{1,3}\s*$/;
const CUT_WORD = /\b\p{Lu}$/u;

/** A provision's label and title alone: "§ 164.308 Administrative safeguards", "Article 19 Reporting of …". */
const LABEL_AND_TITLE = /^(?:§+\s*\d[\d.]*|(?:Article|Articolo|Art\.)\s+\d+[a-z]?|\d+(?:\.\d+){1,3})\s+[\p{Lu}\p{Ll}][^.;:]{0,120}\.?$/u;
const VERB = /\b(?:shall|must|may|is|are|was|were|has|have|be|means|applies|apply|deve|devono|può|possono|è|sono|si applica)\b/i;

const RESERVED_PLACE = /^[\p{L}\d().,§\s–-]{0,40}[[(]\s*(?:reserved|deleted|repealed|removed|omitted|abrogat[oa])\s*[\])]\.?$/iu;

/** A sentence that cannot be an operative provision's text (TOC line, index entry, heading, cut table cell). */
export function isFurniture(text: string): boolean {
  const t = text.trim();
  // Dot leaders ending in a page number are a table of contents or an index; a priced table row
  // ("AOA sensor system test ..... 40 work-hours × $85 per hour = $3,400") is evidence.
  if (DOT_LEADERS.test(t) && (TRAILING_PAGE.test(t) || !/[$€£%]|\d[\d.,]*\s*(?:hours?|days?|work-hours)/i.test(t))) return true;
  // A heading in capitals ("COMMON TERMS AND DEFINITIONS", "GLOSSARY"), alone or run into the next line.
  if (
    /^(?:\p{Lu}{2,}[\s,&-]+){2,}/u.test(t) &&
    !VERB.test(t.match(/^(?:\p{Lu}{2,}[\s,&-]+)+/u)?.[0] ?? "") &&
    (t.match(/^(?:\p{Lu}{2,}[\s,&-]+)+/u)?.[0].length ?? 0) >= t.length * 0.5
  )
    return true;
  if (LABEL_AND_TITLE.test(t) && !VERB.test(t)) return true;
  // "Article 19 Reporting of major ICT-related incidents 41" — a heading with a page number, no verb.
  if (TRAILING_PAGE.test(t) && !VERB.test(t) && t.length < 160) return true;
  if (CUT_WORD.test(t) && !/[.;:!?)"'”]$/.test(t)) return true;
  // A table flattened into text: "Workstation Use 164.310(b) (R) Workstation Security 164.310(c) (R) …".
  if ((t.match(/\(\s?[A-Z]\s?\)/g)?.length ?? 0) >= 3) return true;
  // A pointer to a reference list ("[SP 800-61] provides guidance on incident handling."): NIST's
  // discussions end with them; they say where to read, not what is required.
  if (/^\[[^\]]{2,40}\]\s/.test(t)) return true;
  // A Federal Register source note closing a CFR section ("[74 FR 42740, Aug. 24, 2009, as amended
  // at 78 FR 5695, Jan. 25, 2013]"): it was quoted as a point of the paragraph before it.
  if (/^\[\s*\d+\s+FR\s+\d+[^\]]*\]\.?$/.test(t)) return true;
  // Starting inside a word cut by a column or page ("ode Operation Plan …").
  if (/^\p{Ll}{1,3}\s\p{Lu}/u.test(t)) return true;
  // Rule "a reserved paragraph says nothing": "(b)-(d) [Reserved]", "Article 7 [deleted]" hold a
  // number's place; quoted, they were read as a point of the list above them.
  if (RESERVED_PLACE.test(t)) return true;
  return false;
}

/** A requirement stated as an instruction, as NIST prints them: "Terminate (automatically) a user session …". */
export const IMPERATIVE =
  /^(?:(?:\(?[a-z0-9ivx]{1,4}\))\s*)*(?:Implement|Use|Establish|Develop|Identify|Limit|Protect|Monitor|Control|Employ|Ensure|Provide|Maintain|Review|Track|Scan|Perform|Conduct|Assess|Authorize|Enforce|Prohibit|Separate|Sanitize|Screen|Escort|Train|Create|Retain|Document|Test|Update|Correct|Terminate|Encrypt|Verify|Restrict|Apply|Assign|Designate|Notify|Report|Allow|Deny|Record|Audit|Alert|Backup|Manage|Configure|Disable|Remove|Prevent|Detect|Respond|Recover|Obtain|Include)\b/;

/**
 * A sentence that only names what follows: "(b) Standard: Audit controls.", "(A) Risk analysis
 * (Required)." CFR standards and NIST requirements print their name as a sentence of its own; the
 * next sentence says what to do, and an answer quoting the name alone answers nothing.
 */
export function isHeadingLike(text: string): boolean {
  const t = text.trim();
  // Rule "an instruction is not a title": "Escort visitors and monitor visitor activity." says what to do.
  if (t.endsWith(":") || VERB.test(t) || IMPERATIVE.test(t)) return false;
  const words = t.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  return words.length > 0 && words.length <= 12;
}
