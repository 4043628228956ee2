import { findDeadlines } from "./deadlines.ts";
import type { Modality, Obligation } from "./obligation-types.ts";

// Italian obligations by rules: wink-nlp and compromise only model English, and no Italian tagger
// is available offline here. Sentences are split on punctuation followed by a capital letter (which
// keeps "art. 16", "d.lgs. 36/2023", "lett. b)" intact), the modal is found by a closed list of
// forms, the subject is the words of the same clause before it, the predicate the modal plus the
// following infinitive, the object the words after it up to a clause boundary.

const SENTENCE_END =
  /(?<!\b(?:art|artt|lett|n|pag|c\.d|ss|cfr|es|ecc|sig|dott|ing|s\.p\.a|p\.iva|D\.lgs|d\.lgs|D\.P\.R|d\.P\.R))[.;!?](?=\s+(?:[A-ZÀ-Ú«"“(]|\d+\.\s)|\s*\n|\s*$)|\n(?=\s*(?:[a-z]{1,2}\)|-|•|\d+\.)\s)/gu;

interface ItTrigger {
  re: RegExp;
  modality: Modality;
  negated: boolean;
}

// JavaScript's \b is ASCII-only, so it never fires next to "è" or "può": explicit letter guards.
const B = String.raw`(?<![\p{L}\p{N}])`;
const E = String.raw`(?![\p{L}\p{N}])`;
const A = String.raw`(?:all['’]|(?:alla|allo|alle|agli|ai|al|ad|a)(?![\p{L}]))`;

function it(body: string): RegExp {
  return new RegExp(`${B}${body}${E}`, "giu");
}

// Longest forms first; a later form never overlaps an earlier hit.
const TRIGGERS: ItTrigger[] = [
  { re: it(String.raw`(?:è|e'|sono)\s+(?:fatto\s+)?(?:divieto|vietat[oaie])(?:\s+(?:a|di|per))?`), modality: "must not", negated: true },
  {
    re: it(
      String.raw`non\s+(?:deve|devono|dovrà|dovranno|può|possono|potrà|potranno|è\s+consentit[oaie]|sono\s+consentit[oaie]|è\s+ammess[oaie]|sono\s+ammess[oaie])`,
    ),
    modality: "must not",
    negated: true,
  },
  { re: new RegExp(`${B}(?:è|sono)\\s+(?:tenut[oaie]|obbligat[oaie])\\s+${A}`, "giu"), modality: "must", negated: false },
  { re: it(String.raw`(?:è|sono)\s+obbligatori[oaie]`), modality: "must", negated: false },
  { re: it("(?:deve|devono|dovrà|dovranno)"), modality: "must", negated: false },
  { re: it(String.raw`(?:ha|hanno)\s+(?:la\s+)?facoltà\s+di`), modality: "may", negated: false },
  { re: it("(?:può|possono|potrà|potranno)"), modality: "may", negated: false },
];

const CLAUSE_BREAK = /[,;:()]|(?<![\p{L}])(?:che|qualora|ove|se|quando|nonché|mentre|affinché|purché)(?![\p{L}])/giu;
const OBJECT_STOP =
  /[,;:.()]|\s(?:entro|ai\s+sensi|a\s+pena|qualora|ove|se|salvo|fermo\s+restando|nel\s+rispetto|secondo|mediante|attraverso|previa|pena|in\s+caso|nei\s+casi|con\s+le\s+modalità)\b/iu;
const LEADING = /^(?:(?:inoltre|pertanto|altresì|comunque|infine|in\s+tal\s+caso|in\s+particolare|in\s+ogni\s+caso|tuttavia|quindi|e|o)\s+)+/iu;
const ARTICLES = /^(?:(?:il|lo|la|i|gli|le|un|uno|una)\s+|(?:l|un)['’]\s*)/iu;
const INFINITIVE = /^((?:si\s+)?[a-zà-ú]+(?:are|ere|ire|arsi|ersi|irsi|arre|orre|urre)(?:l[oaie]|ne|si|gli)?)\b/iu;
const AUX_PART = /^((?:essere|avere|venire)\s+[a-zà-ú]+(?:at|ut|it|ess|ott|ist)[oaie])\b/iu;

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function sentences(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    const end = m[0] === "\n" ? m.index : m.index + 1;
    if (end > start) out.push({ start, end });
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push({ start, end: text.length });
  return out.filter((s) => text.slice(s.start, s.end).trim() !== "");
}

function subjectOf(before: string): string {
  let clause = before;
  let last = -1;
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(before); m; m = CLAUSE_BREAK.exec(before)) last = m.index + m[0].length;
  if (last >= 0) clause = before.slice(last);
  const words = collapse(clause)
    .replace(LEADING, "")
    .replace(/^[-–•\s]+/u, "")
    .split(" ")
    .filter((w) => w !== "");
  // A subject is a short noun phrase; a long run is an adverbial ("In caso di …") we cannot parse.
  // "Ai sensi dell'art. 16 la stazione appaltante": the subject starts at its last article.
  const lastArticle = words.reduce((acc, w, i) => (i > 0 && /^(?:il|lo|la|i|gli|le|l['’]\S*)$/iu.test(w) ? i : acc), -1);
  const tail = words
    .slice(lastArticle > 0 ? lastArticle : -8)
    .slice(-8)
    .join(" ");
  return tail
    .replace(ARTICLES, "")
    .replace(/\s+(?:non|si|ne|anche|sempre|comunque)$/iu, "")
    .trim();
}

function predicateAndObject(after: string): { verb: string; object: string } {
  const rest = collapse(after);
  const aux = AUX_PART.exec(rest);
  const inf = aux ?? INFINITIVE.exec(rest);
  let verb = inf ? (inf[1] ?? "") : "";
  // Causatives take a second infinitive: "non può fare valere il diritto".
  const causative = /^(?:fare|lasciare)$/iu.test(verb) ? INFINITIVE.exec(rest.slice(verb.length).trimStart()) : null;
  if (causative) verb = `${verb} ${causative[1] ?? ""}`;
  let tail = rest.slice(verb.length).trimStart();
  const stop = OBJECT_STOP.exec(tail);
  if (stop) tail = tail.slice(0, stop.index);
  const object = tail.trim().split(" ").slice(0, 15).join(" ").replace(ARTICLES, "").trim();
  return { verb, object };
}

export function findItalianObligations(text: string): Obligation[] {
  const out: Obligation[] = [];
  for (const s of sentences(text)) {
    const sentence = text.slice(s.start, s.end);
    const taken: Array<[number, number]> = [];
    const hits: Array<{ at: number; end: number; t: ItTrigger; raw: string }> = [];
    for (const t of TRIGGERS) {
      t.re.lastIndex = 0;
      for (let m = t.re.exec(sentence); m; m = t.re.exec(sentence)) {
        const at = m.index;
        const end = at + m[0].length;
        if (taken.some(([a, b]) => at < b && a < end)) continue;
        taken.push([at, end]);
        hits.push({ at, end, t, raw: m[0] });
      }
    }
    hits.sort((a, b) => a.at - b.at);
    hits.forEach((h, i) => {
      const segStart = i === 0 ? 0 : (hits[i - 1]?.end ?? 0);
      const segEnd = hits[i + 1]?.at ?? sentence.length;
      const subject = subjectOf(sentence.slice(segStart, h.at));
      const { verb, object } = predicateAndObject(sentence.slice(h.end, segEnd));
      const o: Obligation = {
        subject,
        predicate: collapse(`${h.raw.replace(/\s+al(?:l['’]|la|lo|le|l)?$/iu, " a")} ${verb}`),
        object,
        modality: h.t.modality,
        negated: h.t.negated,
        span: { start: s.start, end: s.end },
        sentence: collapse(sentence),
      };
      const deadlines = findDeadlines(sentence.slice(segStart, segEnd), "it");
      if (deadlines.length > 0) o.deadline = deadlines.join("; ");
      out.push(o);
    });
  }
  return out;
}
