import type { Embedder } from "../../model/embedder.ts";
import type { AskSentence } from "../../model/answer-types.ts";
import type { AnswerContext, ContextBlock } from "./context-builder.ts";
import { contentStems, lexicalSupport, numbersIn } from "./lexical.ts";
import { removeKeys, type DraftSentence } from "./parse-llm-output.ts";
import { neutralizeKeys } from "./neutralize.ts";
import { cosine, throwIfAborted } from "./sentence-pool.ts";

// Every answer sentence is checked against the text it cites, whoever wrote it. A key that is
// not in the context is dropped and the sentence flagged; a sentence is supported when most of its
// content words are in its sources (or, with an embedder, enough of them and the meaning is close),
// and every number it states is printed there too — "24 hours" against a source saying "72 hours"
// must not pass.

/** Share of a claim's content words its sources must contain. */
export const MIN_LEXICAL_SUPPORT = 0.6;
/** With an embedder: a lower word overlap passes when the meaning is this close. */
const MIN_LEXICAL_WITH_EMBEDDING = 0.4;
const MIN_COSINE = 0.8;
/** A claim's negations must be in its source: word overlap alone reads "never notify" as "notify". */
const NEGATORS = /\b(?:not|never|no|none|nor|neither|cannot|can't|won't|n't)\b/gi;

// Naming the act or the unit cited ("Under Article 33 of the GDPR") is not a claim about its content.
const CITATION_WORDS = new Set(
  contentStems("article articles art regulation directive section paragraph point annex act law rule document documents source sources provided page"),
);

interface BlockEvidence {
  stems: Set<string>;
  numbers: Set<string>;
  negators: Set<string>;
}

function negatorsIn(text: string): string[] {
  return [...text.matchAll(NEGATORS)].map((m) => (m[0].toLowerCase() === "cannot" ? "not" : m[0].toLowerCase().replace(/^.*n't$/, "not")));
}

function evidenceOf(block: ContextBlock): BlockEvidence {
  const section = block.result.section;
  const texts = [
    ...block.units.map((c) => c.unit.text),
    block.citation.label,
    section.label,
    section.heading,
    ...block.triplets.map((t) => `${t.subject} ${t.predicate} ${t.object} ${t.deadline ?? ""}`),
  ];
  const stems = new Set<string>(CITATION_WORDS);
  const numbers = new Set<string>();
  const negators = new Set<string>();
  for (const t of texts) {
    for (const s of contentStems(t)) stems.add(s);
    for (const n of numbersIn(t)) numbers.add(n);
    for (const n of negatorsIn(t)) negators.add(n);
  }
  return { stems, numbers, negators };
}

export interface VerifyOptions {
  embedder: Embedder | null;
  signal?: AbortSignal;
}

/** Checked sentences, in order: keys resolved against the context, support decided. */
export async function verifySentences(drafts: readonly DraftSentence[], context: AnswerContext, options: VerifyOptions): Promise<AskSentence[]> {
  const evidence = new Map<string, BlockEvidence>();
  for (const b of context.blocks) evidence.set(b.key, evidenceOf(b));
  const checked = drafts.map((d) => {
    const text = removeKeys(neutralizeKeys(d.text));
    const valid = d.keys.filter((k) => context.byKey.has(k));
    const unknown = d.keys.length - valid.length;
    const stems = new Set<string>();
    const numbers = new Set<string>();
    const negators = new Set<string>();
    for (const k of valid) {
      const e = evidence.get(k);
      if (!e) continue;
      for (const s of e.stems) stems.add(s);
      for (const n of e.numbers) numbers.add(n);
      for (const n of e.negators) negators.add(n);
    }
    const lexical = lexicalSupport(contentStems(text), stems);
    // Numbers and negations are where a fluent paraphrase turns false: both must be in the source.
    const numbersOk = numbersIn(text).every((n) => numbers.has(n)) && negatorsIn(text).every((n) => negators.has(n));
    return { draft: d, text, valid, unknown, lexical, numbersOk };
  });
  const needVectors =
    options.embedder !== null
      ? checked.filter(
          (c) =>
            !c.draft.refusal &&
            c.valid.length > 0 &&
            c.unknown === 0 &&
            c.numbersOk &&
            c.lexical < MIN_LEXICAL_SUPPORT &&
            c.lexical >= MIN_LEXICAL_WITH_EMBEDDING,
        )
      : [];
  const close = new Set<number>();
  if (options.embedder !== null && needVectors.length > 0) {
    throwIfAborted(options.signal);
    const claimVectors = await options.embedder.embedDocuments(needVectors.map((c) => c.text));
    for (const [i, c] of needVectors.entries()) {
      const claim = claimVectors[i];
      if (claim === undefined) continue;
      const units = c.valid.flatMap((k) => context.byKey.get(k)?.units ?? []);
      const missing = units.filter((u) => u.vector === null);
      if (missing.length > 0) {
        const vectors = await options.embedder.embedDocuments(missing.map((u) => u.unit.text));
        missing.forEach((u, j) => (u.vector = vectors[j] ?? null));
      }
      const best = Math.max(0, ...units.map((u) => (u.vector === null ? 0 : cosine(claim, u.vector))));
      if (best >= MIN_COSINE) close.add(checked.indexOf(c));
    }
    throwIfAborted(options.signal);
  }
  return checked.map((c, i): AskSentence => {
    if (c.draft.refusal) return { text: c.text, citationKeys: [], supported: true };
    const supported = c.valid.length > 0 && c.unknown === 0 && c.numbersOk && (c.lexical >= MIN_LEXICAL_SUPPORT || close.has(i));
    return {
      text: c.text,
      citationKeys: c.valid,
      supported,
      ...(c.draft.role === undefined ? {} : { role: c.draft.role }),
      ...(c.draft.rule === undefined ? {} : { rule: c.draft.rule }),
      ...(c.draft.more === undefined ? {} : { more: c.draft.more }),
    };
  });
}

/** The display answer: keys before the final stop, and a visible mark on what failed verification. */
export function formatAnswer(sentences: readonly AskSentence[]): string {
  return sentences
    .map((s) => {
      const marks = [...s.citationKeys.map((k) => `[${k}]`), ...(s.supported ? [] : ["[unverified]"])].join("");
      if (marks === "") return s.text;
      const m = /^(.*?)([.!?;:]["'’”)]?)$/su.exec(s.text);
      return m ? `${m[1] ?? ""} ${marks}${m[2] ?? ""}` : `${s.text} ${marks}`;
    })
    .join(" ");
}
