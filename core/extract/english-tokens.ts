import type { WinkMethods } from "wink-nlp";
import { englishPipeline } from "../text/index.ts";

// wink-nlp's tokens with what the English rules read off them: universal POS tag, lemma and the
// character span in the source text (wink does not expose offsets, so each token is aligned).

/** A loaded English pipeline. Loading it is not cheap: create one per job and pass it in. */
export interface EnglishNlp {
  wink: WinkMethods;
}

export function createEnglishNlp(): EnglishNlp {
  // Only the stages we read: sentence boundaries and POS (lemmas come with POS). NER, negation
  // and sentiment would cost time.
  return { wink: englishPipeline(["sbd", "pos"]) };
}

export interface Tok {
  value: string;
  lower: string;
  /** Universal POS tag (NOUN, PROPN, VERB, AUX, ADJ, ADP, DET, CCONJ, PART, PRON, NUM, PUNCT, …). */
  pos: string;
  /** wink's lemma, lower case ("entities" → "entity", "notified" → "notify"). */
  lemma: string;
  start: number;
  end: number;
}

export interface TokenizedText {
  toks: Tok[];
  /** Sentences as inclusive token index ranges. */
  sentences: Array<[number, number]>;
}

/** How far ahead a token may be found before alignment gives up (wink normalises a few characters). */
const ALIGN_WINDOW = 64;

export function tokenize(nlp: EnglishNlp, text: string): TokenizedText {
  const doc = nlp.wink.readDoc(text);
  const its = nlp.wink.its;
  const values = doc.tokens().out(its.value);
  const tags = doc.tokens().out(its.pos);
  // wink's typings give its.lemma an add-on signature out() does not accept; it is a token its-function like its.value.
  const lemmas = doc.tokens().out(its.lemma as unknown as typeof its.value);
  const spans = doc.sentences().out(its.span);
  const toks: Tok[] = [];
  // wink keeps line breaks as SPACE tokens, which would cut phrases printed across two lines: they
  // are dropped, and sentence ranges mapped onto the tokens kept.
  const kept: number[] = [];
  let cursor = 0;
  values.forEach((v, i) => {
    const value = String(v);
    const pos = String(tags[i] ?? "X");
    kept.push(toks.length);
    if (pos === "SPACE" || value.trim() === "") return;
    const at = text.indexOf(value, cursor);
    const found = at >= 0 && at - cursor < ALIGN_WINDOW;
    const start = found ? at : cursor;
    const end = found ? at + value.length : cursor;
    cursor = end;
    const lower = value.toLowerCase();
    toks.push({ value, lower, pos, lemma: String(lemmas[i] ?? lower).toLowerCase(), start, end });
  });
  const sentences: Array<[number, number]> = [];
  for (const s of spans) {
    if (!Array.isArray(s) || typeof s[0] !== "number" || typeof s[1] !== "number") continue;
    // kept[i] is the index the next kept token gets: a sentence ends just before kept[end + 1].
    const from = kept[s[0]] ?? toks.length;
    const to = (kept[s[1] + 1] ?? toks.length) - 1;
    if (to >= from) sentences.push([from, to]);
  }
  return { toks, sentences };
}

/** The source text of tokens from..to (inclusive), whitespace collapsed. */
export function textOf(text: string, toks: readonly Tok[], from: number, to: number): string {
  const a = toks[from];
  const b = toks[to];
  if (!a || !b || to < from) return "";
  return text.slice(a.start, b.end).replace(/\s+/g, " ").trim();
}
