// Time limits printed in obligations. Regex is enough: the forms are formulaic in every corpus
// we have ("within 72 hours", "without undue delay", "entro 10 giorni").

const NUM_EN = String.raw`(?:\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty|ninety)`;
const UNIT_EN = String.raw`(?:(?:working|business|calendar|consecutive)\s+)?(?:hours?|days?|weeks?|months?|years?)`;
const ANCHOR_EN = String.raw`(?:\s+(?:of|from|after|following)\s+(?:the\s+)?(?:moment|date|time|day|receipt|submission|notification|request|entry into force|end|start|beginning|adoption|publication|classification|becoming aware|discovery)(?:\s+of\s+(?:the\s+)?(?:receipt|classification|request|notification|submission|[a-z-]+))?)?`;

const EN: RegExp[] = [
  /\bwithout\s+(?:undue\s+)?(?:further\s+)?delay\b/gi,
  new RegExp(String.raw`\b(?:within|not\s+later\s+than|no\s+later\s+than|at\s+the\s+latest\s+within|by\s+no\s+later\s+than|at\s+least|at\s+most|no\s+more\s+than|not\s+more\s+than|for\s+a\s+period\s+of(?:\s+at\s+least)?)\s+${NUM_EN}\s+${UNIT_EN}${ANCHOR_EN}`, "gi"),
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

/** Deadlines in the order they appear, de-duplicated, whitespace collapsed. */
export function findDeadlines(text: string, language: "en" | "it"): string[] {
  const hits: Array<{ at: number; end: number; text: string }> = [];
  for (const re of language === "it" ? IT : EN) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const at = m.index;
      const end = at + m[0].length;
      if (hits.some((h) => at < h.end && h.at < end)) continue;
      hits.push({ at, end, text: m[0].replace(/\s+/g, " ").trim() });
    }
  }
  hits.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return hits.filter((h) => !seen.has(h.text.toLowerCase()) && seen.add(h.text.toLowerCase())).map((h) => h.text);
}
