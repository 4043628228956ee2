import { createHash } from "node:crypto";
import type { Embedder } from "../model/embedder.ts";
import type { LlmTripletWrite, StatedInRecord } from "../model/store-records.ts";
import type { EntityRecord, TripletRecord } from "../model/graph-records.ts";
import type { Section } from "../model/section-types.ts";
import { mergeSimilarEntities, nameEntity, type EntityNamingOptions, type NamedEntity } from "./entity-merge.ts";
import { locateEvidence, type TextRange } from "./evidence-span.ts";
import type { RawTriplet } from "./extraction-prompt.ts";
import type { DroppedCounts } from "../model/extraction-types.ts";
import { predicateKey, predicateModality } from "./predicate-cluster.ts";
import { trivialReason } from "./trivial-triplet.ts";

// From what the model wrote for each section to the document's LLM triplets: unverifiable and
// trivial ones dropped, entities named like the rule tier's and merged, predicates clustered, and
// the same fact stated in several sections kept once with provenance to every one of them.
// Deterministic for a given input (and embedder), so a resumed run stores what an uninterrupted
// one would.

export interface SectionTriplets {
  section: Section;
  triplets: readonly RawTriplet[];
}

export interface CleanOptions extends EntityNamingOptions {
  documentId: string;
  embedder: Embedder | null;
}

export interface CleanedTriplets extends Omit<LlmTripletWrite, "tripletEmbeddings" | "embeddingModel"> {
  dropped: DroppedCounts;
}

const MAX_EVIDENCE = 600;

interface Mention {
  section: Section;
  span: TextRange;
  subject: NamedEntity;
  object: NamedEntity;
  predicate: string;
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export async function cleanTriplets(input: readonly SectionTriplets[], options: CleanOptions): Promise<CleanedTriplets> {
  const dropped: DroppedCounts = { evidence: 0, trivial: 0, duplicate: 0 };
  const mentions: Mention[] = [];
  for (const { section, triplets } of input) {
    for (const raw of triplets) {
      const span = locateEvidence(section.text, raw.evidence_span);
      if (span === null) {
        dropped.evidence++;
        continue;
      }
      const subject = nameEntity(raw.subject, raw.subject_type, options);
      const object = nameEntity(raw.object, raw.object_type, options);
      const predicate = predicateKey(raw.predicate);
      if (trivialReason({ subjectKey: subject.key, objectKey: object.key, predicateKey: predicate, subject: raw.subject, object: raw.object }) !== null) {
        dropped.trivial++;
        continue;
      }
      mentions.push({ section, span, subject, object, predicate });
    }
  }

  // One node per key: the first naming seen wins, which is document order.
  const named = new Map<string, { entity: NamedEntity; mentions: number }>();
  for (const m of mentions) {
    for (const e of [m.subject, m.object]) {
      const seen = named.get(e.key);
      if (seen) seen.mentions++;
      else named.set(e.key, { entity: e, mentions: 1 });
    }
  }
  const mergeInto = await mergeSimilarEntities(
    [...named.values()].map((n) => ({ key: n.entity.key, name: n.entity.name, mentions: n.mentions, isTerm: n.entity.type === "term" })),
    options.embedder,
  );
  const resolve = (e: NamedEntity): NamedEntity => named.get(mergeInto.get(e.key) ?? e.key)?.entity ?? e;

  const entities = new Map<string, EntityRecord>();
  const entityOf = (e: NamedEntity): EntityRecord => {
    const id = `${options.documentId}:e:${e.key}`;
    let record = entities.get(id);
    if (!record) {
      record = { id, documentId: options.documentId, key: e.key, name: e.name, type: e.type };
      entities.set(id, record);
    }
    return record;
  };

  interface Group {
    subject: NamedEntity;
    object: NamedEntity;
    predicate: string;
    /** First span per section, in the order the sections were given. */
    spans: Map<string, { section: Section; span: TextRange }>;
    count: number;
  }
  const groups = new Map<string, Group>();
  for (const m of mentions) {
    const subject = resolve(m.subject);
    const object = resolve(m.object);
    if (subject.key === object.key) {
      dropped.trivial++;
      continue;
    }
    const key = `${subject.key}\u0000${m.predicate}\u0000${object.key}`;
    let group = groups.get(key);
    if (group) {
      dropped.duplicate++;
      group.count++;
    } else {
      group = { subject, object, predicate: m.predicate, spans: new Map(), count: 1 };
      groups.set(key, group);
    }
    if (!group.spans.has(m.section.id)) group.spans.set(m.section.id, { section: m.section, span: m.span });
  }

  const triplets: TripletRecord[] = [];
  const statedIn: StatedInRecord[] = [];
  for (const [key, group] of groups) {
    const [first] = group.spans.values();
    if (first === undefined) continue;
    const subject = entityOf(group.subject);
    const object = entityOf(group.object);
    const id = `${options.documentId}:llm:${shortHash(key)}`;
    const evidence = first.section.text.slice(first.span.start, first.span.end);
    triplets.push({
      id,
      documentId: options.documentId,
      sectionId: first.section.id,
      subjectId: subject.id,
      subject: subject.name,
      predicate: group.predicate,
      objectId: object.id,
      object: object.name,
      modality: predicateModality(group.predicate),
      deadline: null,
      source: "llm",
      // Stated more than once (or in several sections) makes a misreading less likely.
      confidence: Math.min(0.9, 0.5 + 0.1 * group.count),
      start: first.span.start,
      end: first.span.end,
      evidence: evidence.length > MAX_EVIDENCE ? `${evidence.slice(0, MAX_EVIDENCE)}…` : evidence,
    });
    for (const { section, span } of group.spans.values()) statedIn.push({ tripletId: id, sectionId: section.id, start: span.start, end: span.end });
  }
  return { entities: [...entities.values()], triplets, statedIn, dropped };
}
