// A whole reference at one position: unit phrases chained by ", " (finer units) and "of" (coarser
// ones: "point (a) of Article 6(1)"), ending at "of this Regulation", a known instrument ("of
// Directive (EU) 2022/2555", "del Codice") or, in English, another named act.
import { matchInstrumentAt } from "../instruments.ts";
import { FINE, sticky } from "./lexicon.ts";
import { parsePhrase } from "./phrase.ts";
import type { CrossReferenceContext, Phrase, UnitKind } from "./types.ts";

const OF_EN = /\s*,?\s+of\s+(?:the\s+)?/y;
const OF_IT = /\s*,?\s+(?:del|della|dello|dei|degli|delle|dell['’]\s?|di\s+cui\s+(?:al|alla|allo|all['’]\s?|ai|agli|alle))\s*/y;
const COMMA_CONT = /\s*,?\s+|\s*,\s*/y;
const THIS_EN =
  /this\s+(Regulation|Directive|Decision|Article|paragraph|subparagraph|section|part|subpart|subchapter|chapter|Chapter|Section|Title|Annex|Rule|Part|Subpart|publication|document|Chapter)\b/y;
const THIS_IT = /(?:presente|medesimo|stesso)\s+([A-Za-zÀ-ú]+)(?:\s+di\s+gara)?/y;
const INSTRUMENT_WORDS = new Set([
  "regulation",
  "directive",
  "decision",
  "decreto",
  "codice",
  "disciplinare",
  "capitolato",
  "bando",
  "regolamento",
  "document",
  "publication",
  "subchapter",
]);

// Only a strictly finer structural unit may follow after a comma ("Chapter V, Section II");
// "Article 5, Article 6" is two references, not one inside the other.
const RANK: Partial<Record<UnitKind, number>> = { part: 1, title: 1, annex: 1, chapter: 2, subpart: 2, section: 3, article: 4 };
function finerThan(next: UnitKind, prev: UnitKind): boolean {
  const a = RANK[next];
  const b = RANK[prev];
  return a !== undefined && b !== undefined && a > b;
}

const NAMED_ACT =
  /((?:[A-Z][A-Za-z.]*|\d[\d-]*)(?:\s+(?:[A-Z][A-Za-z.]*|\d[\d\s-]*\d|\d+|of|and|for|on|the)){0,7}?(?:\s+(?:Act|Law\s+[\d\s-]*\d|Code|Treaty|Convention|Charter)\b|(?<=\b[A-Z]{3,8})))(?![A-Za-z])/y;
const NOT_ACTS = new Set(["Union", "Member State", "Member States", "Commission", "Board", "European Union"]);

export interface Chain {
  ordered: Phrase[];
  end: number;
  instrument: { name: string; anaphoric: boolean } | null;
}

export function parseChain(text: string, start: number, ctx: Required<CrossReferenceContext>): Chain | null {
  const first = parsePhrase(text, start, ctx.language);
  if (!first) return null;
  const ordered: Phrase[] = [first.phrase];
  let end = first.end;
  let instrument: Chain["instrument"] = null;
  const ofRe = ctx.language === "it" ? OF_IT : OF_EN;
  const thisRe = ctx.language === "it" ? THIS_IT : THIS_EN;
  for (;;) {
    // ", comma 2", ", point (a)", ", Section II": a following unit is finer than the previous one.
    const cont = sticky(COMMA_CONT, text, end);
    if (cont) {
      const next = parsePhrase(text, end + cont[0].length, ctx.language);
      const prev = ordered[ordered.length - 1];
      if (next && prev && (FINE.has(next.phrase.kind) || (text[end] === "," && finerThan(next.phrase.kind, prev.kind)))) {
        ordered.push(next.phrase);
        end = next.end;
        continue;
      }
    }
    const of = sticky(ofRe, text, end);
    if (!of) break;
    const at = end + of[0].length;
    const next = parsePhrase(text, at, ctx.language);
    if (next) {
      // "point (a) of Article 6(1)": the unit after "of" contains the one before.
      ordered.unshift(next.phrase);
      end = next.end;
      continue;
    }
    const self = sticky(thisRe, text, at);
    if (self) {
      const word = (self[1] ?? "").toLowerCase();
      // "of this Regulation" belongs to the reference but changes nothing; "of this Article"
      // keeps it relative, which is what a missing coarse unit already means.
      if (ctx.language === "en" || INSTRUMENT_WORDS.has(word) || word === "articolo" || word === "comma" || word === "paragrafo") {
        end = at + self[0].length;
      }
      break;
    }
    const instr = matchInstrumentAt(text, at);
    if (instr) {
      instrument = { name: instr.instrument, anaphoric: instr.anaphoric };
      end = instr.end;
    } else if (ctx.language === "en") {
      // "section 3(1) of ERISA", "section 262 of Public Law 104-191": an unknown but named act is
      // still another act; keep its name so the edge is not mistaken for an internal one.
      const named = sticky(NAMED_ACT, text, at);
      const name = named?.[1]?.replace(/\s+/g, " ").trim() ?? "";
      if (named && !NOT_ACTS.has(name)) {
        instrument = { name, anaphoric: false };
        end = at + named[0].length;
      }
    }
    break;
  }
  return { ordered, end, instrument };
}
