// Time limits printed in obligations. Regex is enough: the forms are formulaic in every corpus
// we have ("within 72 hours", "without undue delay", "entro 10 giorni").

const NUM_EN = String.raw`(?:\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety)`;
const UNIT_EN = String.raw`(?:(?:working|business|calendar|consecutive)\s+)?(?:hours?|days?|weeks?|months?|years?)`;
const ANCHOR_EN = String.raw`(?:\s+(?:of|from|after|following)\s+(?:the\s+)?(?:moment|date|time|day|receipt|submission|notification|request|entry into force|end|start|beginning|adoption|publication|classification|becoming aware|discovery)(?:\s+of\s+(?:the\s+)?(?:receipt|classification|request|notification|submission|[a-z-]+))?)?`;

const EN: RegExp[] = [
  /\bwithout\s+(?:undue\s+|unreasonable\s+)?(?:further\s+)?delay\b/gi,
  new RegExp(String.raw`\bin\s+no\s+case\s+later\s+than\s+${NUM_EN}\s+${UNIT_EN}${ANCHOR_EN}`, "gi"),
  new RegExp(
    String.raw`\b(?:within|not\s+later\s+than|no\s+later\s+than|at\s+the\s+latest\s+within|by\s+no\s+later\s+than|at\s+least|at\s+most|no\s+more\s+than|not\s+more\s+than|for\s+a\s+period\s+of(?:\s+at\s+least)?)\s+${NUM_EN}\s+${UNIT_EN}${ANCHOR_EN}`,
    "gi",
  ),
  new RegExp(
    String.raw`\b(?:retain(?:ed)?|kept|keep|maintain(?:ed)?|stored?)\b[^.;]{0,80}?\bfor\s+(?:at\s+least\s+)?${NUM_EN}\s+(?:years?|months?)(?:\s+from\s+the\s+date\s+of\s+[a-z]+)?`,
    "gi",
  ),
  /\bat\s+least\s+(?:annually|once\s+(?:a|per|every)\s+(?:year|month|quarter|week)|every\s+(?:year|\w+\s+years?|\w+\s+months?)|quarterly|monthly|weekly|biannually|yearly)\b/gi,
  /\b(?:immediately|as\s+soon\s+as\s+possible|in\s+a\s+timely\s+manner|promptly)\b/gi,
  /\b(?:by|before|no\s+later\s+than)\s+\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}\b/g,
];

const NUM_IT = String.raw`(?:\d{1,4}|uno|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|quindici|venti|trenta|quarantacinque|sessanta|novanta|centoventi|centottanta)`;
const UNIT_IT = String.raw`(?:ore|giorni|giorno|mesi|mese|anni|anno|settimane)(?:\s+(?:lavorativi|naturali(?:\s+e\s+consecutivi)?|consecutivi|solari))?`;
const ANCHOR_IT = String.raw`(?:\s+(?:dalla|dal|dall['’]|decorrenti\s+dalla|decorrenti\s+dal)\s*[a-zà-ú]+(?:\s+(?:della|del|dell['’])\s*[a-zà-ú]+)?)?`;

const IT: RegExp[] = [
  new RegExp(String.raw`\bentro\s+(?:e\s+non\s+oltre\s+)?(?:il\s+termine\s+(?:perentorio\s+|massimo\s+)?di\s+)?${NUM_IT}\s+${UNIT_IT}${ANCHOR_IT}`, "gi"),
  /\bentro\s+(?:e\s+non\s+oltre\s+)?il\s+(?:termine\s+(?:perentorio\s+)?(?:indicato|fissato|stabilito|previsto)[^,;.]{0,40}|\d{1,2}(?:°)?\s+[a-z]+\s+\d{4}|giorno\s+\d{1,2}[^,;.]{0,20})/gi,
  /\b(?:non\s+oltre|almeno|nel\s+termine\s+di)\s+\d{1,4}\s+(?:ore|giorni|mesi|anni)(?:\s+(?:lavorativi|naturali(?:\s+e\s+consecutivi)?|consecutivi))?(?:\s+prima\s+(?:della|del)\s+[a-zà-ú]+)?/gi,
  /\b(?:senza\s+indugio|tempestivamente|immediatamente|senza\s+ritardo)\b/gi,
];

export interface DeadlineSpan {
  /** As printed, whitespace collapsed ("within 72 hours", "no later than 60 calendar days after discovery"). */
  text: string;
  start: number;
  end: number;
}

// A retention phrase ("retain the documentation … for 6 years") is matched from its verb so that it
// is told from other periods; only its "for N years" part is the deadline.
const RETENTION_TAIL = /\bfor\s+(?:at\s+least\s+)?\S+\s+(?:years?|months?).*$/i;

/** Every deadline with its character span, in order of appearance, overlaps removed. */
export function findDeadlineSpans(text: string, language: "en" | "it"): DeadlineSpan[] {
  const hits: DeadlineSpan[] = [];
  for (const re of language === "it" ? IT : EN) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let start = m.index;
      const end = start + m[0].length;
      const tail = /^(?:retain|kept|keep|maintain|store)/i.test(m[0]) ? RETENTION_TAIL.exec(m[0]) : null;
      if (tail !== null) start = end - tail[0].length;
      if (hits.some((h) => start < h.end && h.start < end)) continue;
      hits.push({ start, end, text: text.slice(start, end).replace(/\s+/g, " ").trim() });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

/** Deadlines in the order they appear, de-duplicated, whitespace collapsed. */
export function findDeadlines(text: string, language: "en" | "it"): string[] {
  const seen = new Set<string>();
  return findDeadlineSpans(text, language)
    .map((h) => h.text)
    .filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}
