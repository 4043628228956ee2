// One unit phrase: a keyword and its list of values ("Articles 15 to 22 and 34", "§ 164.504(e)(2)
// through (e)(4)"), or an ordinal fine unit ("the second subparagraph", "primo periodo").
import { COMPILED, IT_ORDINAL_FINE, LIST_SEP, ORDINAL_FINE, RANGE_SEP, sticky, type CompiledUnit } from "./lexicon.ts";
import { interior } from "./ranges.ts";
import type { Item, Phrase, ReferenceLanguage, UnitKind } from "./types.ts";

interface ParsedPhrase {
  phrase: Phrase;
  end: number;
}

function normaliseValue(raw: string): string {
  return raw.replace(/\s+/g, "").replace(/^(\d+)-?(bis|ter|quater|quinquies|sexies|septies|octies|novies|decies)$/, "$1-$2");
}

/** A keyword followed by a list of values ("Articles 15 to 22 and 34") at exactly `pos`. */
export function parsePhrase(text: string, pos: number, lang: ReferenceLanguage): ParsedPhrase | null {
  const ord = sticky(lang === "it" ? IT_ORDINAL_FINE : ORDINAL_FINE, text, pos);
  if (ord) {
    const unit = (ord[2] ?? "").toLowerCase();
    const kind: UnitKind = unit === "comma" ? "comma" : unit === "paragraph" ? "paragraph" : unit === "periodo" ? "sentence" : "subparagraph";
    return { phrase: { kind, items: [{ value: "", pin: "" }], ordinal: `${ord[1] ?? ""} ${unit}` }, end: pos + ord[0].length };
  }
  for (const unit of COMPILED) {
    if (unit.lang !== "any" && unit.lang !== lang) continue;
    const head = sticky(unit.head, text, pos);
    if (!head) continue;
    const parsed = parseList(text, pos + head[0].length, unit);
    if (parsed) return parsed;
  }
  return null;
}

function parseList(text: string, start: number, unit: CompiledUnit): ParsedPhrase | null {
  const first = sticky(unit.value, text, start);
  if (!first) return null;
  const items: Item[] = [{ value: normaliseValue(first[1] ?? ""), pin: first[2] ?? "" }];
  let end = start + first[0].length;
  for (;;) {
    const range = sticky(RANGE_SEP, text, end);
    const sep = range ?? sticky(LIST_SEP, text, end);
    if (!sep) break;
    const at = end + sep[0].length;
    const next = sticky(unit.value, text, at);
    const prev = items[items.length - 1] ?? { value: "", pin: "" };
    if (next) {
      const item: Item = { value: normaliseValue(next[1] ?? ""), pin: next[2] ?? "" };
      if (range) {
        for (const v of interior(prev.value, item.value) ?? []) items.push({ value: v, pin: "", rangeInterior: true });
      }
      items.push(item);
      end = at + next[0].length;
      continue;
    }
    // "Article 7(4)(b) and (5)", "§ 164.504(e)(2) through (e)(4)": a bare pinpoint continues the same unit.
    const pinOnly = unit.pins ? sticky(unit.valueOnly, text, at) : null;
    if (pinOnly) {
      items.push({ value: prev.value, pin: pinOnly[1] ?? "" });
      end = at + pinOnly[0].length;
      continue;
    }
    break;
  }
  return { phrase: { kind: unit.kind, items }, end };
}
