// The scan over a text: a trigger word ("Article", "§", "comma", "45 CFR") starts an attempt to
// parse a reference there; what parses and is plausible becomes a CrossReference, and bare
// instrument citations no reference swallowed are added at the end.
import { findInstruments } from "../instruments.ts";
import { parseChain, type Chain } from "./chain.ts";
import { parsePrefixed } from "./prefixed.ts";
import { buildTargets } from "./targets.ts";
import type { CrossReference, CrossReferenceContext } from "./types.ts";

const EN_TRIGGER =
  /\b(?:Articles?|Arts?\.|Chapters?|Sections?|sections?(?=\s+\d)|Annex(?:es)?|Titles?|[Ss]ubparts?|Parts?|parts?(?=\s+\d)|Appendix|Appendices|Rules?|[Rr]equirements?(?=\s+\d)|paragraphs?|points?|(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|last|final)\s+(?:subparagraph|paragraph|sentence))(?![A-Za-z])|§|\b\d{1,2}\s+(?:CFR|C\.F\.R\.|U\.?S\.?C)|\b[A-Z]{2,5}\s+Rules?\s+\d/g;
const IT_TRIGGER =
  /(?<![A-Za-zÀ-ú])(?:[Aa]rticol[oi]|[Aa]rtt?\.|[Aa]rt\s+\d|commi|comma|lettere|lettera|lett\.|punti|punto|[Aa]llegat[oi]|[Cc]apo|[Tt]itolo|[Pp]arte|(?:primo|secondo|terzo|quarto|quinto|ultimo)\s+(?:periodo|comma))(?![A-Za-zÀ-ú])|§/g;

function defaultsFor(ctx: CrossReferenceContext): Required<CrossReferenceContext> {
  const kind = ctx.documentKind ?? (ctx.language === "it" ? "italian" : "generic");
  const language = ctx.language ?? (kind === "italian" ? "it" : "en");
  return { documentKind: kind, language };
}

/** Labels of units that are too generic to be a reference without a number shape we trust. */
function plausible(chain: Chain, ctx: Required<CrossReferenceContext>): boolean {
  const only = chain.ordered.length === 1 ? chain.ordered[0] : undefined;
  if (!only) return true;
  // "Title 45" or "Part I" in prose is a weak signal outside CFR/EU acts; NIST and rulebooks print
  // "Part" loosely, so a lone part/title needs an instrument or a CFR document.
  if ((only.kind === "part" || only.kind === "title") && chain.instrument === null) {
    return ctx.documentKind === "cfr" || ctx.documentKind === "eu" || ctx.documentKind === "italian";
  }
  return true;
}

/**
 * Every cross-reference in `text`, in order, non-overlapping. Bare instrument citations
 * ("Directive (EU) 2015/2366") are kept as targets with label null and an external instrument.
 */
export function findCrossReferences(text: string, context: CrossReferenceContext = {}): CrossReference[] {
  const ctx = defaultsFor(context);
  const refs: CrossReference[] = [];
  const trigger = ctx.language === "it" ? IT_TRIGGER : EN_TRIGGER;
  trigger.lastIndex = 0;
  const instruments = findInstruments(text);
  // Held in an object: TypeScript does not track writes made inside the closure below.
  const memory: { lastInstrument: string | null } = { lastInstrument: null };
  let instrIdx = 0;
  const noteInstrumentsBefore = (pos: number): void => {
    while (instrIdx < instruments.length && (instruments[instrIdx]?.start ?? Infinity) < pos) {
      const hit = instruments[instrIdx];
      if (hit) memory.lastInstrument = hit.instrument;
      instrIdx++;
    }
  };

  for (let m = trigger.exec(text); m; m = trigger.exec(text)) {
    const start = m.index;
    const prefixed = parsePrefixed(text, start, ctx);
    const chain = prefixed ?? parseChain(text, start, ctx);
    if (!chain || !plausible(chain, ctx)) continue;
    noteInstrumentsBefore(start);
    let instrument: string | null = chain.instrument?.name ?? null;
    if (chain.instrument?.anaphoric && memory.lastInstrument !== null) instrument = memory.lastInstrument;
    const targets = buildTargets(chain.ordered, ctx, instrument);
    if (targets.length === 0) continue;
    refs.push({ start, end: chain.end, raw: text.slice(start, chain.end), targets });
    trigger.lastIndex = chain.end;
  }

  // Bare instrument citations that no section reference swallowed.
  for (const hit of instruments) {
    if (refs.some((r) => hit.start < r.end && hit.end > r.start)) continue;
    refs.push({ start: hit.start, end: hit.end, raw: text.slice(hit.start, hit.end), targets: [{ label: null, external: { instrument: hit.instrument } }] });
  }
  refs.sort((a, b) => a.start - b.start);
  return refs;
}
