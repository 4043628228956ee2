import { findInstruments, instrumentKey } from "../extract/instruments.ts";

// Official identifiers in running text, as language-neutral keys: "Regulation (EU) 2022/2554",
// "Regolamento (UE) 2022/2554", "Reg. 2022/2554" and the CELEX number "32022R2554" all give
// "regulation:2022/2554"; "45 CFR Parts 160, 162, and 164" gives one key per part; "NIST SP
// 800-171 Rev. 2" gives "nist-sp:800-171". EU acts and Italian decrees reuse the citation
// parser of core/extract/instruments.ts, so the graph and the names agree on what a number is.

export interface KeyMatch {
  key: string;
  start: number;
  end: number;
  /** As written. */
  text: string;
}

const CELEX = /\b3(\d{4})([RLD])(\d{4})\b/g;
const CELEX_TYPE: Record<string, string> = { R: "regulation", L: "directive", D: "decision" };
/** Short forms findInstruments leaves out: "Reg. 2022/2554", "Dir. (UE) 2022/2555", "regolamento UE 2016/679". */
const SHORT_EU = /\b(Reg|Dir|Regulation|Directive|Regolamento|Direttiva)\.?\s*(?:\(?(?:EU|UE|EC|CE)\)?\s*)?(?:(?:No\.?|n\.)\s*)?(\d{1,4})\s*\/\s*(\d{1,4})\b/gi;
const CFR = /\b(\d{1,2})\s*C\.?F\.?R\.?\s*(?:Parts?|§+)?\s*(\d{1,4})((?:\s*(?:,|and|&)\s*(?:and\s+)?\d{1,4}\b)*)(?:[^.;\n]{0,12}?\bSubparts?\s+([A-Z])\b)?/gi;
const NIST_SP = /\b(?:(?:NIST\s+)?(?:SP|Special\s+Publication)\s*|NIST\s+|\b)(800-\d{1,3})[A-Z]?\b/gi;
const ISO = /\bISO(?:\s*\/\s*IEC)?\s*(\d{4,5})(?:-\d+)?(?::\d{4})?\b/gi;
const PUBLIC_LAW = /\bPub(?:lic)?\.?\s*L(?:aw)?\.?\s*(?:No\.?\s*)?(\d{2,3})\s*[-–]\s*(\d{1,3})\b/gi;
const NIST_CSWP = /\bNIST\s+CSWP\s+(\d{1,3})\b/gi;
const UK_CHAPTER = /\b((?:19|20)\d{2})\s+c\.\s*(\d{1,3})\b/g;

function euKey(type: string, a: string, b: string): string {
  const t = type.toLowerCase();
  const kind = t.startsWith("dir") ? "directive" : t.startsWith("dec") ? "decision" : "regulation";
  return `${kind}:${Number(a)}/${Number(b)}`;
}

/** Every identifier in the text with its key, overlapping forms of the same key merged. */
export function identifierKeys(text: string): KeyMatch[] {
  const out: KeyMatch[] = [];
  const add = (key: string, start: number, end: number): void => {
    out.push({ key, start, end, text: text.slice(start, end) });
  };
  for (const m of findInstruments(text)) {
    const key = instrumentKey(m.instrument);
    // "45 CFR" alone is a whole CFR title: the CFR pattern below gives the parts.
    if (/^(regulation|directive|decision|dlgs|legge):/.test(key))
      add(
        key.replace(/(\d+)\/(\d+)$/, (_, a: string, b: string) => `${Number(a)}/${Number(b)}`),
        m.start,
        m.end,
      );
  }
  for (const m of text.matchAll(SHORT_EU)) add(euKey(m[1] ?? "", m[2] ?? "", m[3] ?? ""), m.index, m.index + m[0].length);
  for (const m of text.matchAll(CELEX)) add(`${CELEX_TYPE[m[2] ?? "R"] ?? "regulation"}:${Number(m[1])}/${Number(m[3])}`, m.index, m.index + m[0].length);
  for (const m of text.matchAll(CFR)) {
    const parts = [m[2] ?? "", ...(m[3] ?? "").split(/[^\d]+/).filter((p) => p !== "")];
    const subpart = m[4] === undefined ? "" : `/${m[4].toUpperCase()}`;
    for (const part of parts) add(`cfr:${Number(m[1])}/${Number(part)}${parts.length === 1 ? subpart : ""}`, m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(NIST_SP)) add(`nist-sp:${(m[1] ?? "").toLowerCase()}`, m.index, m.index + m[0].length);
  for (const m of text.matchAll(ISO)) add(`iso:${m[1] ?? ""}`, m.index, m.index + m[0].length);
  for (const m of text.matchAll(PUBLIC_LAW)) add(`publ:${Number(m[1])}-${Number(m[2])}`, m.index, m.index + m[0].length);
  for (const m of text.matchAll(NIST_CSWP)) add(`nist-cswp:${Number(m[1])}`, m.index, m.index + m[0].length);
  for (const m of text.matchAll(UK_CHAPTER)) add(`ukpga:${m[1] ?? ""}/${Number(m[2])}`, m.index, m.index + m[0].length);
  const seen = new Set<string>();
  return out
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .filter((m) => {
      const id = `${m.key}@${m.start}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}

/** The key a registry identifier stands for (its first one); null when it parses to none. */
export function identifierKey(identifier: string): string | null {
  return identifierKeys(identifier)[0]?.key ?? null;
}
