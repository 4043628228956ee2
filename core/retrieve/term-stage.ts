import { normalizeEntity } from "../extract/normalize-entity.ts";
import { tokenize } from "../text/index.ts";
import { analyzeQuery } from "./query-terms.ts";
import type { RetrievalStore } from "../store/retrieval-store.ts";

// "What is a business associate?" is answered by the section that defines the term, which often
// shares few other words with the question. The question's word sequences are looked up as
// defined terms (in the form definitions are stored), and each defining section becomes a
// candidate, scored by how much of the question the term covers.

export interface TermHit {
  sectionId: string;
  /** Share of the question's words the longest matching term covers, in (0, 1]. */
  score: number;
  termIds: string[];
}

/** Longest term looked up, in words ("critical ICT third-party service provider"). */
const MAX_TERM_WORDS = 6;

/** The question's word sequences of 1–6 words, normalized like stored terms. */
export function termCandidates(query: string, language: "en" | "it" = "en"): Map<string, number> {
  const words = tokenize(query);
  const out = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= MAX_TERM_WORDS && i + n <= words.length; n++) {
      const phrase = words.slice(i, i + n).join(" ");
      // Single words must be long enough to be terms rather than function words ("data" is 4).
      if (n === 1 && phrase.length < 4) continue;
      const normalized = normalizeEntity(phrase, { language });
      if (normalized.length < 3) continue;
      out.set(normalized, Math.max(out.get(normalized) ?? 0, n));
    }
  }
  return out;
}

export async function termStage(store: RetrievalStore, query: string): Promise<TermHit[]> {
  // Coverage is measured against the question's content words: in "what is a business
  // associate under HIPAA" the term is two of three.
  const words = analyzeQuery(query).words.length;
  if (words === 0) return [];
  const candidates = new Map([...termCandidates(query, "en"), ...termCandidates(query, "it")]);
  const terms = await store.getTermsByNormalized([...candidates.keys()]);
  const bySection = new Map<string, TermHit>();
  for (const term of terms) {
    const n = candidates.get(term.normalizedTerm) ?? 1;
    const score = Math.min(1, n / Math.min(words, 4));
    const hit = bySection.get(term.sectionId);
    if (hit) {
      hit.score = Math.max(hit.score, score);
      hit.termIds.push(term.id);
    } else {
      bySection.set(term.sectionId, { sectionId: term.sectionId, score, termIds: [term.id] });
    }
  }
  return [...bySection.values()].sort((a, b) => b.score - a.score || (a.sectionId < b.sectionId ? -1 : 1));
}

// Questions that ask what a term means, in English and Italian. A question that merely names a
// term ("what are the reporting requirements of an Authorised Person…?") is better answered by
// the rule than by the definition: "what is/are X" counts only when the question is short.
const EXPLICIT_DEFINITION = [
  /\bwhat\s+(does|do)\b.*\b(mean|cover|include)\b/iu,
  /\b(meaning|definition)\s+of\b/iu,
  /\b(define[sd]?|defined\s+as|counts?\s+as|qualif(y|ies)\s+as)\b/iu,
  /\b(cosa|che\s+cosa)\s+si\s+intende\b/iu,
  /\b(che\s+)?cos['’]\s*[èe]\b/iu,
  /\b(definizione|significato)\s+d[ie]/iu,
  /\bcosa\s+significa\b/iu,
];
const WHAT_IS = /^\s*(what|who)\s*(is|are|'s)\s+(an?\s+)?[\p{L}"'‘“]/iu;
/** Content words of a short "what is X" question: "what is a business associate under HIPAA" has 3. */
const SHORT_QUESTION_WORDS = 5;

export function isDefinitionQuestion(query: string): boolean {
  if (EXPLICIT_DEFINITION.some((pattern) => pattern.test(query))) return true;
  return WHAT_IS.test(query) && !/^\s*(what|who)\s*(is|are|'s)\s+the\b/iu.test(query) && analyzeQuery(query).words.length <= SHORT_QUESTION_WORDS;
}
