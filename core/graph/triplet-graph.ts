import { acronymMap, findAcronyms } from "../extract/definitions.ts";
import { canonicalKey, normalizeEntity } from "../extract/normalize-entity.ts";
import { createEnglishNlp, findObligations, type EnglishNlp } from "../extract/obligations.ts";
import type { EntityRecord, TermRecord, TripletRecord } from "../store/graph-types.ts";
import type { Section } from "../structure/types.ts";

// Rule-based triplets: every obligation, prohibition, permission and recommendation the
// obligation finder reads off a section becomes (subject, predicate, object) with its modality,
// deadline and evidence span. Subjects and objects become entities normalised with the
// document's own acronyms, so "ICT third-party service providers" and "the ICT third-party
// service provider" are one node. The LLM tier adds triplets of source "llm" to the same tables.

/** Rule triplets are right about what the sentence requires far more often than about its exact noun phrases. */
const RULE_CONFIDENCE = 0.7;
/** Entity names longer than this are clauses, not concepts: cut at a word boundary. */
const MAX_ENTITY_WORDS = 12;
const MAX_EVIDENCE = 600;
// Pronouns the finder could not resolve to a noun phrase: a triplet about "which" says nothing.
const UNRESOLVED = new Set(["which", "that", "it", "they", "this", "these", "those", "who", "whom", "such", "stesso", "stessa", "esso", "essa", "essi", "questo", "questa", "quale", "che"]);
// An entity made only of these words names nothing an auditor could look up ("them", "there",
// "that the", "this article"): it would be a meaningless node in the graph.
const NON_ENTITY_WORDS = new Set([
  ...UNRESOLVED, "them", "there", "here", "the", "a", "an", "its", "their", "his", "her", "him", "us", "we", "you", "one", "ones",
  "other", "others", "any", "all", "each", "both", "either", "thereof", "therein", "article", "paragraph", "point", "subparagraph",
  "section", "chapter", "regulation", "directive", "part", "same", "what", "whatever", "lo", "la", "gli", "le", "il", "articolo", "comma",
]);
// Possessive, distributive and anaphoric determiners say whose or which, not what: "its
// opinion" is the opinion, "each supervisory authority" a supervisory authority.
const LEADING_DETERMINER = /^(?:its|their|his|her|our|your|such|said|the same|each|every|this|that|these|those)\s+/iu;

// "inform them of the decision": the pronoun is the indirect object; the decision is the thing.
const LEADING_PRONOUN_OBJECT = /^(?:them|him|her|it|us|you)\s+(?:of|about|with|to|for|on|in)\s+/iu;

function namesNothing(key: string): boolean {
  return key.split(/\s+/).every((word) => NON_ENTITY_WORDS.has(word));
}

export interface TripletGraph {
  entities: EntityRecord[];
  triplets: TripletRecord[];
}

export interface TripletGraphOptions {
  /** Reuse one loaded pipeline across documents (loading costs ~100 ms). */
  nlp?: EnglishNlp;
}

function shorten(text: string): string {
  const words = text.split(/\s+/).filter((w) => w !== "");
  const cut = words.slice(0, MAX_ENTITY_WORDS).join(" ");
  return words.length > MAX_ENTITY_WORDS ? cut.replace(/[,;:(]+$/, "") : cut;
}

export function buildRuleTriplets(
  documentId: string,
  sections: readonly Section[],
  language: "en" | "it",
  terms: readonly TermRecord[] = [],
  options: TripletGraphOptions = {},
): TripletGraph {
  const nlp = language === "en" ? (options.nlp ?? createEnglishNlp()) : undefined;
  // The document's own acronym definitions ("information and communication technology (ICT)")
  // expand its abbreviations wherever they appear, before keys are compared.
  const acronymList = sections.flatMap((s) => findAcronyms(s.text));
  const acronyms = acronymMap(acronymList.filter((a, i) => acronymList.findIndex((b) => b.acronym === a.acronym) === i));
  const termKeys = new Set(terms.map((t) => canonicalKey(t.term, { language, acronyms })));
  const entities = new Map<string, EntityRecord>();
  const triplets: TripletRecord[] = [];

  const entity = (text: string, role: "actor" | "object"): EntityRecord | null => {
    const name = shorten(normalizeEntity(text.replace(LEADING_PRONOUN_OBJECT, "").replace(LEADING_DETERMINER, ""), { language, acronyms }));
    const key = canonicalKey(name, { language });
    if (key.length < 2 || UNRESOLVED.has(key) || namesNothing(key)) return null;
    const id = `${documentId}:e:${key}`;
    let e = entities.get(id);
    if (!e) {
      e = { id, documentId, key, name, type: termKeys.has(key) ? "term" : role };
      entities.set(id, e);
    }
    return e;
  };

  for (const section of sections) {
    if (section.text.trim() === "") continue;
    const found = findObligations(section.text, { language, ...(nlp ? { nlp } : {}) });
    found.forEach((o, n) => {
      const subject = o.subject === "" ? null : entity(o.subject, "actor");
      if (subject === null) return; // who must act is the point of an obligation: without it, no triplet
      const object = o.object === "" ? null : entity(o.object, "object");
      triplets.push({
        id: `${section.id}#t${n}`,
        documentId,
        sectionId: section.id,
        subjectId: subject.id,
        subject: subject.name,
        predicate: o.predicate.toLowerCase(),
        objectId: object?.id ?? "",
        object: object?.name ?? "",
        modality: o.modality,
        deadline: o.deadline ?? null,
        source: "rule",
        confidence: RULE_CONFIDENCE,
        start: o.span.start,
        end: o.span.end,
        evidence: o.sentence.length > MAX_EVIDENCE ? `${o.sentence.slice(0, MAX_EVIDENCE)}…` : o.sentence,
      });
    });
  }
  return { entities: [...entities.values()], triplets };
}
