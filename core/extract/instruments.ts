// Names of other legal acts ("instruments") as printed in EU, US and Italian texts, and a canonical
// key so "Regulation (EU) No 2016/679", "Regulation (EU) 2016/679" and "Regolamento (UE) 2016/679"
// meet in one document alias during resolution.

export interface InstrumentMatch {
  start: number;
  end: number;
  /** As printed, whitespace collapsed ("Regulation (EU) No 648/2012", "d.lgs. 36/2023"). */
  instrument: string;
  /** True for anaphora such as "that Directive": the caller substitutes the last instrument seen. */
  anaphoric: boolean;
}

const EU_TYPES = String.raw`(?:(?:Commission|Council|Delegated|Implementing|Framework)\s+)*(?:Regulation|Directive|Decision|Regolamento|[Dd]irettiva|[Dd]ecisione)`;
const EU_ORIGIN = String.raw`\(?(?:EU|EC|EEC|EU,\s*Euratom|Euratom|UE|CE|CEE)\)?`;
const EU_NUMBER = String.raw`(?:(?:No\.?|n\.|N\.)\s*)?\d{1,4}\/\d{1,4}(?:\/(?:EU|EC|EEC|UE|CE|CEE|JHA|GAI))?`;

// Ordered: the first pattern that matches at a position wins, so longer forms come first.
const PATTERNS: Array<{ re: RegExp; build: (m: RegExpExecArray) => string; anaphoric?: boolean }> = [
  {
    re: new RegExp(String.raw`${EU_TYPES}\s+(?:${EU_ORIGIN}\s+)?${EU_NUMBER}`, "y"),
    build: (m) => collapse(m[0]),
  },
  { re: /(\d{1,2})\s+(?:CFR|C\.F\.R\.)/y, build: (m) => `${m[1] ?? ""} CFR` },
  { re: /(\d{1,2})\s+U\.?S\.?C\.?/y, build: (m) => `${m[1] ?? ""} U.S.C.` },
  {
    re: /(?:that|the said|the same)\s+(Regulation|Directive|Decision|Act|Treaty|Code)\b/y,
    build: (m) => `that ${m[1] ?? ""}`,
    anaphoric: true,
  },
  { re: /(?:the\s+)?Treaty\s+on\s+the\s+Functioning\s+of\s+the\s+European\s+Union/y, build: () => "TFEU" },
  { re: /(?:the\s+)?Treaty\s+on\s+European\s+Union/y, build: () => "TEU" },
  { re: /(?:the\s+)?(TEU|TFEU|Charter(?: of Fundamental Rights(?: of the European Union)?)?)\b/y, build: (m) => m[1] ?? "" },
  { re: /the\s+(Act|Social Security Act|HIPAA|HITECH Act)\b/y, build: (m) => `the ${m[1] ?? ""}` },
  // Italian primary sources. Numbers normalise to "n/year" the way lawyers abbreviate them.
  {
    re: /d\.?\s*lg?\.?\s*s\.?\s*(?:n\.?\s*)?(\d{1,4})\s*\/\s*(\d{4})/iy,
    build: (m) => `d.lgs. ${m[1] ?? ""}/${m[2] ?? ""}`,
  },
  {
    re: /decreto\s+legislativo\s+(?:(?:\d{1,2}\s+[a-z]+\s+)?(\d{4}),?\s+)?n\.\s*(\d{1,4})(?:\s*\/\s*(\d{4}))?/iy,
    build: (m) => `d.lgs. ${m[2] ?? ""}/${m[3] ?? m[1] ?? "?"}`,
  },
  {
    re: /decreto\s+legislativo\s+del\s+(\d{4}),?\s+n\.\s*(\d{1,4})/iy,
    build: (m) => `d.lgs. ${m[2] ?? ""}/${m[1] ?? ""}`,
  },
  {
    re: /(?:citata\s+)?legge\s+(?:\d{1,2}\s+[a-z]+\s+)?(\d{4}),?\s+n\.\s*(\d{1,4})/iy,
    build: (m) => `l. ${m[2] ?? ""}/${m[1] ?? ""}`,
  },
  {
    re: /(?:regio\s+decreto|r\.\s?d\.)\s+(?:\d{1,2}\s+[a-z]+\s+)?(\d{4}),?\s+n\.\s*(\d{1,4})/iy,
    build: (m) => `r.d. ${m[2] ?? ""}/${m[1] ?? ""}`,
  },
  {
    re: /[Cc]odice\s+(civile|penale|di procedura civile|di procedura penale|dell['’]\s?amministrazione\s+digitale|del processo amministrativo)/y,
    build: (m) => `Codice ${collapse(m[1] ?? "").replace("’", "'")}`,
  },
  { re: /[Cc]odice(?:\s+(?:degli\s+appalti|appalti|dei\s+contratti(?:\s+pubblici)?))?\b/y, build: () => "Codice" },
  { re: /Costituzione\b/y, build: () => "Costituzione" },
];

export function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The instrument printed exactly at `pos`, if any. */
export function matchInstrumentAt(text: string, pos: number): InstrumentMatch | null {
  for (const p of PATTERNS) {
    p.re.lastIndex = pos;
    const m = p.re.exec(text);
    if (m) return { start: pos, end: pos + m[0].length, instrument: p.build(m), anaphoric: p.anaphoric === true };
  }
  return null;
}

/** Start positions worth trying matchInstrumentAt on; cheap pre-filter so we do not try every offset. */
const SCAN =
  /\b(?:(?:Commission|Council|Delegated|Implementing)\s+)?(?:Regulation|Directive|Decision|Regolamento|[Dd]irettiva)\s+(?:\(?(?:EU|EC|EEC|UE|CE)|No|n\.|\d)|\b\d{1,2}\s+(?:CFR|C\.F\.R\.|U\.?S\.?C)|\bd\.?\s*lg?\.?\s*s\.?\s*(?:n\.?\s*)?\d|\bdecreto\s+legislativo\s+(?:\d|n\.|del)|\blegge\s+\d/gi;

/** Every explicit (non-anaphoric) instrument citation in the text, in order. */
export function findInstruments(text: string): InstrumentMatch[] {
  const out: InstrumentMatch[] = [];
  SCAN.lastIndex = 0;
  for (let m = SCAN.exec(text); m; m = SCAN.exec(text)) {
    const hit = matchInstrumentAt(text, m.index);
    if (hit && !hit.anaphoric) {
      out.push(hit);
      SCAN.lastIndex = hit.end;
    }
  }
  return out;
}

const EU_KEY = /(regulation|directive|decision|regolamento|direttiva|decisione)\b.*?(\d{1,4})\/(\d{1,4})/i;
const TYPE_KEY: Record<string, string> = {
  regulation: "regulation",
  regolamento: "regulation",
  directive: "directive",
  direttiva: "directive",
  decision: "decision",
  decisione: "decision",
};

/**
 * A language-neutral key for alias matching: "regulation:2016/679", "cfr:45", "dlgs:36/2023",
 * otherwise the lowercased collapsed text ("gdpr", "codice").
 */
export function instrumentKey(instrument: string): string {
  const s = collapse(instrument).toLowerCase().replace(/’/g, "'");
  const eu = EU_KEY.exec(s);
  if (eu) return `${TYPE_KEY[eu[1] ?? ""] ?? "act"}:${eu[2] ?? ""}/${eu[3] ?? ""}`;
  const cfr = /^(\d{1,2})\s*c\.?f\.?r\.?/.exec(s);
  if (cfr) return `cfr:${cfr[1] ?? ""}`;
  const usc = /^(\d{1,2})\s*u\.?s\.?c\.?/.exec(s);
  if (usc) return `usc:${usc[1] ?? ""}`;
  const dlgs = /^(?:d\.?\s*lg?\.?\s*s\.?|decreto legislativo)\s*(?:n\.?\s*)?(\d+)\/(\d{4})/.exec(s);
  if (dlgs) return `dlgs:${dlgs[1] ?? ""}/${dlgs[2] ?? ""}`;
  const legge = /^(?:l\.|legge)\s*(?:n\.?\s*)?(\d+)\/(\d{4})/.exec(s);
  if (legge) return `legge:${legge[1] ?? ""}/${legge[2] ?? ""}`;
  return s.replace(/^the\s+/, "");
}
