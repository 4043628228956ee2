import { acronymMap, findAcronyms, findDefinitions } from "../extract/definitions.ts";
import { findDeadlineSpans } from "../extract/deadlines.ts";
import { entityName, isNounPhraseText, type EntityName } from "../extract/entity-names.ts";
import { createEnglishNlp, findObligations, type EnglishNlp, type Obligation } from "../extract/obligations.ts";
import { partyTypeOfName, type PartyType } from "../extract/party-types.ts";
import type { DeadlineRecord, EntityRecord, TermRecord, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import { createHash } from "node:crypto";
import { runToEnd, type GraphSteps } from "./graph-steps.ts";

// Rule-based triplets: every obligation, prohibition, permission and recommendation the
// obligation finder reads off a section becomes (subject, predicate, object) with its modality,
// recipient, deadline and evidence span. Subjects, objects and recipients are noun phrases
// (core/extract/noun-phrases.ts) named and keyed by core/extract/entity-names.ts, so "ICT
// third-party service providers" and "the information and communication technology third-party
// service provider" are one node, and a mention that names nothing (a pronoun, "first
// subparagraph", "(EU) No 648/2012") is never a node: a triplet without a nameable subject is
// dropped, an unnameable object left empty. Parties are typed where the name or the document's
// definition of it says so. The LLM tier adds triplets of source "llm" to the same tables.

/** Rule triplets are right about what the sentence requires far more often than about its exact noun phrases. */
const RULE_CONFIDENCE = 0.7;
/** Imperative items and requirements take their subject from a lead-in or the document's addressee. */
const IMPLICIT_CONFIDENCE = 0.6;
const MAX_EVIDENCE = 600;
const MAX_DEADLINE_SENTENCE = 400;

export interface TripletGraph {
  entities: EntityRecord[];
  triplets: TripletRecord[];
  deadlines: DeadlineRecord[];
  stats: TripletGraphStats;
}

/** What naming and merging did, for bench:graph. */
export interface TripletGraphStats {
  /** Subject, object and recipient mentions that became an entity. */
  mentions: number;
  /** Mentions refused: pronouns, cross-references, names too short. */
  refusedMentions: number;
  /** Distinct surface forms (as written, lower-cased) per entity, summed. */
  surfaceForms: number;
  /** Entities whose mentions were written in more than one way (plural/singular, article, acronym). */
  mergedEntities: number;
  /** Entities one of whose mentions used an acronym the document defines (merged with the expansion). */
  acronymMerges: number;
  /** Triplets dropped because their subject named nothing. */
  droppedTriplets: number;
}

export interface TripletGraphOptions {
  /** Reuse one loaded pipeline across documents (loading it is not cheap). */
  nlp?: EnglishNlp;
  /** Told each triplet with the obligation it was read from (bench:graph matches labels by the modal's position). */
  onTriplet?: (triplet: TripletRecord, obligation: Obligation) => void;
  /** Told what naming and merging did, once the document is done (bench:graph). */
  onStats?: (stats: TripletGraphStats) => void;
}

/** The first noun phrase of a definition ("an independent public authority which …" → "independent public authority"). */
function definitionParty(definition: string, language: "en" | "it"): PartyType | null {
  const head = definition.split(/\s+(?:which|that|who|where|established|referred|as|in|under|within|whose|listed|designated|,)\s+|[,;:(]/u)[0] ?? "";
  return partyTypeOfName(head.replace(/^(?:the|a|an|any|each)\s+/iu, ""), language);
}

/** The party a document's requirements address: its most frequent regulated-party subject. */
function documentAddressee(subjects: ReadonlyMap<string, { name: string; count: number }>, language: "en" | "it"): string | undefined {
  let best: { name: string; count: number } | undefined;
  for (const s of subjects.values()) {
    if (partyTypeOfName(s.name, language) !== "regulated party") continue;
    // "nonfederal organization" over "organization" when both are frequent: the more specific name the document uses.
    if (best === undefined || s.count > best.count || (s.count * 2 >= best.count && s.name.endsWith(best.name) && s.name.length > best.name.length)) best = s;
  }
  return best?.name;
}

/** The document's own acronym definitions ("information and communication technology (ICT)"), first definition of each. */
export function documentAcronyms(sections: readonly Section[]): Map<string, string> {
  const list = sections.flatMap((s) => findAcronyms(s.text));
  return acronymMap(list.filter((a, i) => list.findIndex((b) => b.acronym === a.acronym) === i));
}

export function buildRuleTriplets(
  documentId: string,
  sections: readonly Section[],
  language: "en" | "it",
  terms: readonly TermRecord[] = [],
  options: TripletGraphOptions = {},
): TripletGraph {
  return runToEnd(ruleTripletSteps(documentId, sections, language, terms, options));
}

/** buildRuleTriplets, yielding after each section (graph-steps.ts). */
export function* ruleTripletSteps(
  documentId: string,
  sections: readonly Section[],
  language: "en" | "it",
  terms: readonly TermRecord[] = [],
  options: TripletGraphOptions = {},
): GraphSteps<TripletGraph> {
  const nlp = language === "en" ? (options.nlp ?? createEnglishNlp()) : undefined;
  // The document's own acronym definitions ("information and communication technology (ICT)")
  // expand its abbreviations wherever they appear, before keys are compared.
  const acronyms = documentAcronyms(sections);
  const naming = { language, acronyms };
  const termKeys = new Set(terms.map((t) => entityName(t.term, naming)?.key ?? "").filter((k) => k !== ""));
  const definedParties = new Map<string, PartyType>();
  for (const section of sections) {
    for (const d of findDefinitions(section.text, language)) {
      const key = entityName(d.term, naming)?.key;
      const party = definitionParty(d.definition, language);
      if (key !== undefined && party !== null && !definedParties.has(key)) definedParties.set(key, party);
    }
  }
  const entities = new Map<string, EntityRecord>();
  const surfaces = new Map<string, Set<string>>();
  const acronymEntities = new Set<string>();
  const stats: TripletGraphStats = { mentions: 0, refusedMentions: 0, surfaceForms: 0, mergedEntities: 0, acronymMerges: 0, droppedTriplets: 0 };
  const triplets: TripletRecord[] = [];

  const entity = (text: string, role: "actor" | "object"): EntityRecord | null => {
    if (text.trim() === "") return null;
    let named: EntityName | null = entityName(text, naming);
    // One word out of its sentence can be an adjective or a gerund the chunker took for a noun
    // ("Legal …", "Consistent with § 160.310", "Derogating from …"): read it as a phrase to be sure.
    if (named !== null && nlp !== undefined && !named.name.includes(" ") && !isNounPhraseText(nlp, named.name)) named = null;
    if (named === null) {
      stats.refusedMentions++;
      return null;
    }
    stats.mentions++;
    const id = `${documentId}:e:${named.key}`;
    let e = entities.get(id);
    if (!e) {
      const party = partyTypeOfName(named.name, language) ?? partyTypeOfName(named.key, language) ?? definedParties.get(named.key) ?? null;
      e = { id, documentId, key: named.key, name: named.name, type: termKeys.has(named.key) ? "term" : role, party: party ?? "" };
      entities.set(id, e);
    }
    const forms = surfaces.get(id) ?? new Set<string>();
    forms.add(text.toLowerCase().replace(/\s+/g, " ").trim());
    surfaces.set(id, forms);
    if (named.expanded) acronymEntities.add(id);
    return e;
  };

  function* extract(addressee?: string): GraphSteps<Array<{ section: Section; found: Obligation[] }>> {
    const out: Array<{ section: Section; found: Obligation[] }> = [];
    for (const section of sections) {
      if (section.text.trim() === "" || (addressee !== undefined && section.kind !== "requirement")) continue;
      out.push({
        section,
        found: findObligations(section.text, {
          language,
          ...(nlp ? { nlp } : {}),
          ...(addressee !== undefined && section.kind === "requirement" ? { addressee } : {}),
        }),
      });
      yield;
    }
    return out;
  }

  let perSection = yield* extract();
  // Requirements written as imperatives ("Limit system access …") bind the party the document
  // addresses: a second pass over them once the document's own subjects are known.
  if (language === "en" && sections.some((s) => s.kind === "requirement")) {
    const counts = new Map<string, { name: string; count: number }>();
    for (const { found } of perSection) {
      for (const o of found) {
        const named = entityName(o.subject, naming);
        if (named === null) continue;
        const c = counts.get(named.key) ?? { name: named.name, count: 0 };
        c.count++;
        counts.set(named.key, c);
      }
    }
    const addressee = documentAddressee(counts, language);
    if (addressee !== undefined) {
      const again = new Map((yield* extract(addressee)).map((x) => [x.section.id, x.found]));
      perSection = perSection.map((x) => ({ section: x.section, found: again.get(x.section.id) ?? x.found }));
    }
  }

  for (const { section, found } of perSection) {
    yield;
    let n = 0;
    for (const o of found) {
      const subject = entity(o.subject, "actor");
      // Who must act is the point of an obligation: without it, no triplet.
      if (subject === null) {
        stats.droppedTriplets++;
        continue;
      }
      const object = o.object === "" ? null : entity(o.object, "object");
      const recipient = o.recipient === undefined ? null : entity(o.recipient, "actor");
      const triplet: TripletRecord = {
        id: `${section.id}#t${n++}`,
        documentId,
        sectionId: section.id,
        subjectId: subject.id,
        subject: subject.name,
        predicate: o.predicate.toLowerCase(),
        objectId: object?.id ?? "",
        object: object?.name ?? "",
        recipientId: recipient?.id ?? "",
        recipient: recipient?.name ?? "",
        modality: o.modality,
        deadline: o.deadline ?? null,
        source: "rule",
        confidence: o.implicit === true ? IMPLICIT_CONFIDENCE : RULE_CONFIDENCE,
        start: o.span.start,
        end: o.span.end,
        evidence: o.sentence.length > MAX_EVIDENCE ? `${o.sentence.slice(0, MAX_EVIDENCE)}…` : o.sentence,
      };
      triplets.push(triplet);
      options.onTriplet?.(triplet, o);
    }
  }
  for (const [id, forms] of surfaces) {
    stats.surfaceForms += forms.size;
    if (forms.size > 1) stats.mergedEntities++;
    if (acronymEntities.has(id)) stats.acronymMerges++;
  }
  options.onStats?.(stats);
  return { entities: [...entities.values()], triplets, deadlines: buildDeadlines(documentId, sections, language), stats };
}

/** The sentence around a span: from the last sentence end before it to the next one after it. */
function sentenceAround(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const from = Math.max(before.lastIndexOf(". "), before.lastIndexOf(".\n"), before.lastIndexOf("; "), before.lastIndexOf(":\n")) + 1;
  const after = /[.;](?=\s|$)/.exec(text.slice(end));
  const to = after === null ? text.length : end + after.index + 1;
  const sentence = text.slice(from, to).replace(/\s+/g, " ").trim();
  return sentence.length > MAX_DEADLINE_SENTENCE ? `${sentence.slice(0, MAX_DEADLINE_SENTENCE)}…` : sentence;
}

/** Every time limit printed in the document, with its section, span and sentence. */
export function buildDeadlines(documentId: string, sections: readonly Section[], language: "en" | "it"): DeadlineRecord[] {
  const out: DeadlineRecord[] = [];
  for (const section of sections) {
    for (const d of findDeadlineSpans(section.text, language)) {
      out.push({
        id: createHash("sha256").update(`${section.id}\u0000${d.start}\u0000${d.end}`).digest("hex").slice(0, 24),
        documentId,
        sectionId: section.id,
        text: d.text,
        sentence: sentenceAround(section.text, d.start, d.end),
        start: d.start,
        end: d.end,
      });
    }
  }
  return out;
}
