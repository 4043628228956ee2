import { escapeRegExp } from "../text/index.ts";
import { provisionLabel, shortDocumentName, shortSectionLabel } from "../citations/index.ts";
import { entityName } from "../extract/entity-names.ts";
import { normalizeEntity, singularizeWord } from "../extract/normalize-entity.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { GraphValue, ReadOnlyRow } from "../model/store-records.ts";
import type { Section } from "../model/section-types.ts";
import { gateCypher } from "./cypher-gate.ts";
import type { GraphIntent, ProvisionTarget } from "./graph-intent.ts";
import type { GraphRowCell } from "../model/graph-answer-types.ts";
import type { QuerySchema } from "./query-schema.ts";

// Each intent as parameterised Cypher: the question's words travel only as $parameters, and every
// statement still passes the gate (cypher-gate.ts) and runs on the read-only connection
// (store.readOnlyQuery) like a model's would. Rows come back with the section (and character
// span) each rests on; graph-answer.ts turns those into citations.

export interface QueryRuntime {
  store: GraphStore;
  schema: QuerySchema;
  timeoutMs: number;
  maxRows: number;
  /** Every statement that ran, as the gate printed it. */
  ran: string[];
}

export interface IntentRow {
  cells: GraphRowCell[];
  sectionId: string;
  span?: { start: number; end: number };
  tripletId?: string;
}

export interface IntentResult {
  columns: string[];
  rows: IntentRow[];
  /** Sections the evidence graph shows beside the rows' own (the provision asked about). */
  focusSectionIds: string[];
  /** One sentence saying what was found ("12 sections cite DORA Art. 19."). */
  summary: string;
  /** More rows existed than are shown. */
  truncated: boolean;
}

type Params = Record<string, string | number | boolean | string[]>;

/** Runs a statement through the gate and the read-only connection. */
export async function runGated(rt: QueryRuntime, cypher: string, params: Params): Promise<ReadOnlyRow[]> {
  const gated = gateCypher(cypher, rt.schema, { maxRows: rt.maxRows + 1, params: Object.keys(params) });
  rt.ran.push(gated.cypher);
  return rt.store.readOnlyQuery(gated.cypher, params, { timeoutMs: rt.timeoutMs });
}

const str = (v: GraphValue | undefined): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const num = (v: GraphValue | undefined): number => (typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : Number(v ?? 0));
const clip = (s: string, n: number): string => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1).replace(/\s+\S*$/, "")}…` : t;
};

/** Sections whose label is one of `labels` (or a part of one), within the given documents. */
async function resolveTargets(rt: QueryRuntime, target: ProvisionTarget): Promise<Array<{ id: string; documentId: string; label: string }>> {
  const labels = target.labels.flatMap((l) => (/^\d+(?:\.\d+)+$/.test(l) ? [l, `Section ${l}`] : [l]));
  const params: Params = { labels, ...Object.fromEntries(labels.map((l, i) => [`part${i}`, `${l} (part `])) };
  const parts = labels.map((_, i) => `s.label STARTS WITH $part${i}`).join(" OR ");
  const scoped = target.documentIds.length > 0;
  if (scoped) params.docs = target.documentIds;
  const rows = await runGated(
    rt,
    `MATCH (s:Section) WHERE (s.label IN $labels OR ${parts})${scoped ? " AND s.documentId IN $docs" : ""} RETURN s.id AS id, s.documentId AS documentId, s.label AS label ORDER BY s.documentId, s.ordinal`,
    params,
  );
  return rows.map((r) => ({ id: str(r.id), documentId: str(r.documentId), label: str(r.label) }));
}

/** Labels of sections by id, for row cells. */
async function sectionsById(rt: QueryRuntime, ids: readonly string[]): Promise<Map<string, { section: Section; documentName: string }>> {
  const found = await rt.store.getSectionsByIds([...new Set(ids)]);
  return new Map(found.map(({ section, document }) => [section.id, { section, documentName: shortDocumentName(document) }]));
}

function provisionName(entry: { section: Section; documentName: string } | undefined, fallback: string): string {
  if (entry === undefined) return fallback;
  return `${entry.documentName} ${shortSectionLabel(provisionLabel(entry.section.label))}`.trim();
}

function heading(entry: { section: Section } | undefined): string {
  return clip(entry?.section.heading ?? "", 80);
}

function truncate<T>(rt: QueryRuntime, rows: T[]): { rows: T[]; truncated: boolean } {
  return rows.length > rt.maxRows ? { rows: rows.slice(0, rt.maxRows), truncated: true } : { rows, truncated: false };
}

/**
 * Rows that each rest on a span of one section (a definition, a deadline, a fact): the query's
 * `section`, `at` and `spanEnd` columns place them, `id` is the triplet's when `triplets`; `cells`
 * names a row, given the provision it is in ("DORA Art. 19"). Also the documents they come from.
 */
async function spanRows(
  rt: QueryRuntime,
  raw: readonly ReadOnlyRow[],
  cells: (r: ReadOnlyRow, provision: string) => GraphRowCell[],
  triplets = false,
): Promise<{ rows: IntentRow[]; truncated: boolean; documents: string }> {
  const names = await sectionsById(
    rt,
    raw.map((r) => str(r.section)),
  );
  const list = truncate(
    rt,
    raw.map((r): IntentRow => ({
      cells: cells(r, provisionName(names.get(str(r.section)), str(r.section))),
      sectionId: str(r.section),
      span: { start: num(r.at), end: num(r.spanEnd) },
      ...(triplets ? { tripletId: str(r.id) } : {}),
    })),
  );
  return { ...list, documents: [...new Set([...names.values()].map((n) => n.documentName))].join(", ") };
}

function targetsText(
  targets: ReadonlyArray<{ label: string }>,
  names: ReadonlyMap<string, { section: Section; documentName: string }>,
  ids: readonly string[],
): string {
  const seen = new Set<string>();
  for (const id of ids) seen.add(provisionName(names.get(id), ""));
  const list = [...seen].filter((s) => s !== "");
  return list.length > 0 ? list.join(", ") : [...new Set(targets.map((t) => provisionLabel(t.label)))].join(", ");
}

// Tables of contents (a preamble's, a CFR part's list of its sections) print labels, not citations.
const NOT_CITING = "NOT a.kind IN ['preamble', 'part', 'subpart', 'chapter', 'title']";

async function cites(rt: QueryRuntime, target: Extract<GraphIntent, { kind: "cites" }>): Promise<IntentResult> {
  // "Which sections of NIST SP 800-66 cite § 164.308?": the document named is the citing one;
  // the provision is looked for there first, then in the whole library.
  let targets = await resolveTargets(rt, target);
  if (targets.length === 0 && target.citingDocumentIds.length > 0) targets = await resolveTargets(rt, { ...target, documentIds: [] });
  const ids = targets.map((t) => t.id);
  const params: Params = { targets: ids };
  if (target.citingDocumentIds.length > 0) params.citing = target.citingDocumentIds;
  const raw =
    ids.length === 0
      ? []
      : await runGated(
          rt,
          `MATCH (a:Section)-[r:REFERS_TO]->(b:Section) WHERE b.id IN $targets AND NOT a.id IN $targets AND ${NOT_CITING}${target.citingDocumentIds.length > 0 ? " AND a.documentId IN $citing" : ""} RETURN a.id AS citing, r.raw AS raw, r.spanStart AS at, r.spanEnd AS spanEnd, b.id AS target ORDER BY a.documentId, a.ordinal, r.spanStart`,
          params,
        );
  const names = await sectionsById(rt, [...raw.map((r) => str(r.citing)), ...ids]);
  // One row per citing provision (a long article split in parts is one provision), at its first citation.
  const byProvision = new Map<string, IntentRow>();
  for (const r of raw) {
    const entry = names.get(str(r.citing));
    const key = entry === undefined ? str(r.citing) : `${entry.section.documentId}\u0000${provisionLabel(entry.section.label)}`;
    if (byProvision.has(key)) continue;
    byProvision.set(key, {
      cells: [
        { name: "Section", value: provisionName(entry, str(r.citing)) },
        { name: "Heading", value: heading(entry) },
        { name: "Citation", value: str(r.raw) },
        { name: "Cites", value: provisionName(names.get(str(r.target)), "") },
      ],
      sectionId: str(r.citing),
      span: { start: num(r.at), end: num(r.spanEnd) },
    });
  }
  const { rows, truncated } = truncate(rt, [...byProvision.values()]);
  const what = targetsText(targets, names, ids);
  return {
    columns: ["Section", "Heading", "Citation", "Cites"],
    rows,
    focusSectionIds: ids.slice(0, 3),
    summary:
      targets.length === 0
        ? `No section of the library is labelled ${target.labels.join(", ")}.`
        : `${rows.length} ${rows.length === 1 ? "section cites" : "sections cite"} ${what}.`,
    truncated,
  };
}

async function citedBy(rt: QueryRuntime, target: ProvisionTarget): Promise<IntentResult> {
  const sources = await resolveTargets(rt, target);
  const ids = sources.map((s) => s.id);
  const raw =
    ids.length === 0
      ? []
      : await runGated(
          rt,
          "MATCH (a:Section)-[:CITES]->(r:Reference) WHERE a.id IN $sources RETURN a.id AS source, r.raw AS raw, r.label AS label, r.toSectionId AS target, r.instrument AS instrument, r.resolved AS resolved, r.spanStart AS at, r.spanEnd AS spanEnd ORDER BY a.ordinal, r.spanStart",
          { sources: ids },
        );
  const names = await sectionsById(rt, [...raw.map((r) => str(r.target)).filter((t) => t !== ""), ...ids]);
  const rows = new Map<string, IntentRow>();
  for (const r of raw) {
    const targetId = str(r.target);
    // A paragraph of the provision itself ("paragraph 2", "point (a)") is not another provision.
    if (ids.includes(targetId) || (targetId === "" && str(r.label) === "" && str(r.instrument) === "")) continue;
    const resolved = targetId !== "" && names.has(targetId);
    const entry = names.get(targetId);
    const key =
      resolved && entry !== undefined
        ? `${entry.section.documentId}\u0000${provisionLabel(entry.section.label)}`
        : `${str(r.instrument)}\u0000${str(r.label) || str(r.raw)}`;
    if (rows.has(key)) continue;
    const printed = [str(r.label), str(r.instrument)].filter((x) => x !== "").join(" of ") || str(r.raw);
    rows.set(key, {
      cells: [
        { name: "Cited provision", value: resolved ? provisionName(entry, printed) : printed },
        { name: "As printed", value: str(r.raw) },
        { name: "In the library", value: resolved ? "yes" : "no" },
      ],
      // In the library: the cited section itself; otherwise where the citation is printed.
      sectionId: resolved ? targetId : str(r.source),
      ...(resolved ? {} : { span: { start: num(r.at), end: num(r.spanEnd) } }),
    });
  }
  const list = truncate(rt, [...rows.values()]);
  const what = targetsText(sources, names, ids);
  return {
    columns: ["Cited provision", "As printed", "In the library"],
    rows: list.rows,
    focusSectionIds: ids.slice(0, 3),
    summary:
      sources.length === 0
        ? `No section of the library is labelled ${target.labels.join(", ")}.`
        : `${what} ${list.rows.length === 1 ? "cites 1 provision" : `cites ${list.rows.length} provisions`}.`,
    truncated: list.truncated,
  };
}

async function defines(rt: QueryRuntime, documentIds: readonly string[], term: string | undefined, labels: readonly string[] = []): Promise<IntentResult> {
  const params: Params = {};
  const where: string[] = [];
  if (documentIds.length > 0) {
    params.docs = [...documentIds];
    where.push("t.documentId IN $docs");
  }
  // The provisions the question names keep the list to the terms they define (and their parts').
  const within = labels.length === 0 ? null : await resolveTargets(rt, { labels: [...labels], documentIds: [...documentIds] });
  if (within !== null) {
    if (within.length === 0) {
      return {
        columns: ["Term", "Defined in", "Definition"],
        rows: [],
        focusSectionIds: [],
        summary: `No section of the library is labelled ${labels.join(", ")}.`,
        truncated: false,
      };
    }
    params.sections = within.map((s) => s.id);
    where.push("s.id IN $sections");
  }
  if (term !== undefined) {
    params.term = normalizeEntity(term);
    params.termIt = normalizeEntity(term, { language: "it" });
    where.push("(t.normalizedTerm = $term OR t.normalizedTerm = $termIt)");
  }
  const raw = await runGated(
    rt,
    `MATCH (t:Term)-[:DEFINED_IN]->(s:Section)${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} RETURN t.term AS term, t.definition AS definition, s.id AS section, t.spanStart AS at, t.spanEnd AS spanEnd ORDER BY s.documentId, s.ordinal, t.spanStart`,
    params,
  );
  const list = await spanRows(rt, raw, (r, provision) => [
    { name: "Term", value: str(r.term) },
    { name: "Defined in", value: provision },
    { name: "Definition", value: clip(str(r.definition), 200) },
  ]);
  const docs = list.documents;
  return {
    columns: ["Term", "Defined in", "Definition"],
    rows: list.rows,
    focusSectionIds: [],
    summary:
      term !== undefined
        ? list.rows.length === 0
          ? `No imported document defines “${term}”.`
          : `“${term}” is defined in ${[...new Set(list.rows.map((r) => r.cells[1]?.value ?? ""))].join(", ")}.`
        : `${list.rows.length} ${list.rows.length === 1 ? "term is" : "terms are"} defined${within !== null ? ` in ${[...new Set(within.map((s) => s.label.replace(/ \(part \d+\)$/, "")))].join(", ")}${docs === "" ? "" : ` (${docs})`}` : docs === "" ? "" : ` in ${docs}`}.`,
    truncated: list.truncated,
  };
}

/** The party's name and key as entities store them, for matching subjects and recipients. */
function partyMatch(party: string, prefix: string): { where: string; params: Params } {
  const named = entityName(party, { language: "en" });
  const name = (named?.name ?? party).toLowerCase();
  const key = named?.key ?? party.toLowerCase();
  return {
    where: `(lower(${prefix}.name) = $${prefix}Name OR lower(${prefix}.name) ENDS WITH $${prefix}NameEnd OR ${prefix}.key = $${prefix}Key OR ${prefix}.key ENDS WITH $${prefix}KeyEnd)`,
    params: { [`${prefix}Name`]: name, [`${prefix}NameEnd`]: ` ${name}`, [`${prefix}Key`]: key, [`${prefix}KeyEnd`]: ` ${key}` },
  };
}

/** A row's text carries every topic word (singular or plural): "… of a personal data breach". */
function onTopic(text: string, topic: readonly string[]): boolean {
  const t = text.toLowerCase();
  return topic.every((w) => t.includes(singularizeWord(w.toLowerCase())));
}

const OPERATIVE = "NOT s.kind IN ['recital', 'preamble']";

/**
 * The sections of the provisions a question names, as a filter on `s` (and their ids), or null when
 * it names none; an empty list when no section carries such a label.
 */
async function withinProvisions(
  rt: QueryRuntime,
  labels: readonly string[] | undefined,
  documentIds: readonly string[],
  where: string[],
  params: Params,
): Promise<Array<{ label: string }> | null> {
  if (labels === undefined || labels.length === 0) return null;
  const within = await resolveTargets(rt, { labels: [...labels], documentIds: [...documentIds] });
  params.sections = within.map((t) => t.id);
  where.push("s.id IN $sections");
  return within;
}

/** Where the rows were looked for, for the summary: " in Article 19" (parts folded), or nothing. */
function inProvisions(within: ReadonlyArray<{ label: string }> | null): string {
  return within === null || within.length === 0 ? "" : ` in ${[...new Set(within.map((s) => s.label.replace(/ \(part \d+\)$/, "")))].join(", ")}`;
}

/** The answer when the named provisions are nowhere in the library. */
function noSuchProvision(columns: string[], labels: readonly string[]): IntentResult {
  return { columns, rows: [], focusSectionIds: [], summary: `No section of the library is labelled ${labels.join(", ")}.`, truncated: false };
}

async function obligations(rt: QueryRuntime, intent: Extract<GraphIntent, { kind: "obligations" }>): Promise<IntentResult> {
  const party = partyMatch(intent.party, "e");
  const params: Params = { ...party.params, modalities: intent.modalities };
  const where = [party.where, "t.modality IN $modalities", OPERATIVE];
  if (intent.documentIds.length > 0) {
    params.docs = intent.documentIds;
    where.push("t.documentId IN $docs");
  }
  if (intent.withDeadline) where.push("t.deadline <> ''");
  const within = await withinProvisions(rt, intent.labels, intent.documentIds, where, params);
  if (within !== null && within.length === 0) return noSuchProvision(["Party", "Duty", "Deadline", "Section"], intent.labels ?? []);
  const raw = await runGated(
    rt,
    `MATCH (t:Triplet)-[:HAS_SUBJECT]->(e:Entity), (t)-[:STATED_IN]->(s:Section) WHERE ${where.join(" AND ")} RETURN DISTINCT t.id AS id, t.subject AS subject, t.predicate AS predicate, t.object AS object, t.recipient AS recipient, t.deadline AS deadline, t.evidence AS evidence, s.id AS section, t.spanStart AS at, t.spanEnd AS spanEnd, s.documentId AS doc, s.ordinal AS ordinal ORDER BY doc, ordinal, at`,
    params,
  );
  const kept = raw.filter((r) => onTopic(`${str(r.evidence)} ${str(r.object)}`, intent.topic));
  const list = await spanRows(
    rt,
    kept,
    (r, provision) => [
      { name: "Party", value: str(r.subject) },
      { name: "Duty", value: [str(r.predicate), str(r.object), str(r.recipient) === "" ? "" : `(to ${str(r.recipient)})`].filter((x) => x !== "").join(" ") },
      { name: "Deadline", value: str(r.deadline) },
      { name: "Section", value: provision },
    ],
    true,
  );
  const kind = intent.modalities.includes("may")
    ? "permissions"
    : intent.modalities.every((m) => m === "must not")
      ? "prohibitions"
      : intent.modalities.includes("should")
        ? "recommendations"
        : "obligations";
  return {
    columns: ["Party", "Duty", "Deadline", "Section"],
    rows: list.rows,
    focusSectionIds: [],
    summary: `${list.rows.length} ${kind} of the ${intent.party}${intent.withDeadline ? " with a time limit" : ""}${intent.topic.length > 0 ? ` about ${intent.topic.join(" ")}` : ""}${inProvisions(within)}.`,
    truncated: list.truncated,
  };
}

async function deadlines(rt: QueryRuntime, intent: Extract<GraphIntent, { kind: "deadlines" }>): Promise<IntentResult> {
  const { documentIds, topic } = intent;
  const params: Params = {};
  const where = [OPERATIVE];
  // A party named: the time limits of its own duties, the deadlines of the triplets it is the subject of.
  const party = intent.party === undefined ? null : partyMatch(intent.party, "e");
  if (party !== null) {
    Object.assign(params, party.params);
    where.push(party.where, "t.deadline <> ''");
  }
  if (documentIds.length > 0) {
    params.docs = [...documentIds];
    where.push(`${party === null ? "d" : "t"}.documentId IN $docs`);
  }
  const within = await withinProvisions(rt, intent.labels, documentIds, where, params);
  if (within !== null && within.length === 0) return noSuchProvision(["Deadline", "Section", "Sentence"], intent.labels ?? []);
  const raw = await runGated(
    rt,
    party === null
      ? `MATCH (s:Section)-[:SETS_DEADLINE]->(d:Deadline) WHERE ${where.join(" AND ")} RETURN d.text AS text, d.sentence AS sentence, s.id AS section, d.spanStart AS at, d.spanEnd AS spanEnd ORDER BY s.documentId, s.ordinal, d.spanStart`
      : `MATCH (t:Triplet)-[:HAS_SUBJECT]->(e:Entity), (t)-[:STATED_IN]->(s:Section) WHERE ${where.join(" AND ")} RETURN DISTINCT t.id AS id, t.deadline AS text, t.evidence AS sentence, s.id AS section, t.spanStart AS at, t.spanEnd AS spanEnd, s.documentId AS doc, s.ordinal AS ordinal ORDER BY doc, ordinal, at`,
    params,
  );
  const kept = raw.filter((r) => onTopic(str(r.sentence), topic));
  const list = await spanRows(
    rt,
    kept,
    (r, provision) => [
      { name: "Deadline", value: str(r.text) },
      { name: "Section", value: provision },
      { name: "Sentence", value: clip(str(r.sentence), 220) },
    ],
    party !== null,
  );
  const docs = list.documents;
  return {
    columns: ["Deadline", "Section", "Sentence"],
    rows: list.rows,
    focusSectionIds: [],
    summary: `${list.rows.length} ${list.rows.length === 1 ? "deadline" : "deadlines"}${intent.party === undefined ? "" : ` of the ${intent.party}`}${inProvisions(within)}${docs === "" ? "" : `${within === null ? " in" : ""} ${within === null ? docs : `(${docs})`}`}${topic.length > 0 ? ` about ${topic.join(" ")}` : ""}.`,
    truncated: list.truncated,
  };
}

// Verbs of notifying: who must tell whom.
const NOTIFY_VERBS = /\b(?:notify|inform|report|communicate|submit|transmit|forward|alert|send)\b/;

async function notify(rt: QueryRuntime, intent: Extract<GraphIntent, { kind: "notify" }>): Promise<IntentResult> {
  const params: Params = { modalities: ["must", "must not"] };
  const where = ["t.modality IN $modalities", OPERATIVE];
  if (intent.documentIds.length > 0) {
    params.docs = intent.documentIds;
    where.push("t.documentId IN $docs");
  }
  if (intent.recipient !== undefined) {
    const m = partyMatch(intent.recipient, "r");
    Object.assign(params, m.params);
    where.push(m.where);
  }
  // The party telling: the triplet's subject.
  const teller = intent.party === undefined ? null : partyMatch(intent.party, "e");
  if (teller !== null) {
    Object.assign(params, teller.params);
    where.push(teller.where);
  }
  const within = await withinProvisions(rt, intent.labels, intent.documentIds, where, params);
  if (within !== null && within.length === 0) return noSuchProvision(["Who", "Must", "Whom", "Deadline", "Section"], intent.labels ?? []);
  const raw = await runGated(
    rt,
    `MATCH (t:Triplet)-[:HAS_RECIPIENT]->(r:Entity), ${teller === null ? "" : "(t)-[:HAS_SUBJECT]->(e:Entity), "}(t)-[:STATED_IN]->(s:Section) WHERE ${where.join(" AND ")} RETURN DISTINCT t.id AS id, t.subject AS subject, t.predicate AS predicate, t.object AS object, r.name AS recipient, t.deadline AS deadline, t.evidence AS evidence, s.id AS section, t.spanStart AS at, t.spanEnd AS spanEnd, s.documentId AS doc, s.ordinal AS ordinal ORDER BY doc, ordinal, at`,
    params,
  );
  const kept = raw.filter((r) => NOTIFY_VERBS.test(str(r.predicate)) && onTopic(`${str(r.evidence)} ${str(r.object)}`, intent.topic));
  const list = await spanRows(
    rt,
    kept,
    (r, provision) => [
      { name: "Who", value: str(r.subject) },
      { name: "Must", value: [str(r.predicate), str(r.object)].filter((x) => x !== "").join(" ") },
      { name: "Whom", value: str(r.recipient) },
      { name: "Deadline", value: str(r.deadline) },
      { name: "Section", value: provision },
    ],
    true,
  );
  return {
    columns: ["Who", "Must", "Whom", "Deadline", "Section"],
    rows: list.rows,
    focusSectionIds: [],
    summary: `${list.rows.length} ${list.rows.length === 1 ? "duty" : "duties"}${intent.party === undefined ? "" : ` of the ${intent.party}`} to notify${intent.recipient === undefined ? "" : ` the ${intent.recipient}`}${intent.topic.length > 0 ? ` about ${intent.topic.join(" ")}` : ""}${inProvisions(within)}.`,
    truncated: list.truncated,
  };
}

async function structure(rt: QueryRuntime, intent: Extract<GraphIntent, { kind: "structure" }>): Promise<IntentResult> {
  const targets = await resolveTargets(rt, intent);
  const ids = targets.map((t) => t.id);
  const cypher = {
    parent: "MATCH (s:Section)-[:PART_OF]->(p:Section) WHERE s.id IN $targets RETURN DISTINCT p.id AS id, p.ordinal AS ordinal ORDER BY ordinal",
    children: "MATCH (c:Section)-[:PART_OF]->(p:Section) WHERE p.id IN $targets RETURN DISTINCT c.id AS id, c.ordinal AS ordinal ORDER BY ordinal",
    siblings:
      "MATCH (s:Section)-[:PART_OF]->(p:Section)<-[:PART_OF]-(o:Section) WHERE s.id IN $targets AND NOT o.id IN $targets RETURN DISTINCT o.id AS id, o.ordinal AS ordinal ORDER BY ordinal",
  }[intent.relation];
  const raw = ids.length === 0 ? [] : await runGated(rt, cypher, { targets: ids });
  const names = await sectionsById(rt, [...raw.map((r) => str(r.id)), ...ids]);
  // The parts of one long article are one provision.
  const rows = new Map<string, IntentRow>();
  for (const r of raw) {
    const entry = names.get(str(r.id));
    if (entry === undefined) continue;
    const key = `${entry.section.documentId}\u0000${provisionLabel(entry.section.label)}`;
    if (rows.has(key)) continue;
    rows.set(key, {
      cells: [
        { name: "Section", value: provisionName(entry, str(r.id)) },
        { name: "Heading", value: heading(entry) },
      ],
      sectionId: entry.section.id,
    });
  }
  const list = truncate(rt, [...rows.values()]);
  const what = targetsText(targets, names, ids);
  const relation = { parent: "is part of", children: "contains", siblings: "sits beside" }[intent.relation];
  return {
    columns: ["Section", "Heading"],
    rows: list.rows,
    focusSectionIds: ids.slice(0, 3),
    summary:
      targets.length === 0
        ? `No section of the library is labelled ${intent.labels.join(", ")}.`
        : `${what} ${relation} ${list.rows.length} ${list.rows.length === 1 ? "provision" : "provisions"}.`,
    truncated: list.truncated,
  };
}

async function mentions(rt: QueryRuntime, intent: Extract<GraphIntent, { kind: "mentions" }>): Promise<IntentResult> {
  const { name } = intent;
  const scope: string[] = [];
  const params: Params = {};
  const within = await withinProvisions(rt, intent.labels, [], scope, params);
  if (within !== null && within.length === 0) return noSuchProvision(["Document", "Sections mentioning it", "First mention"], intent.labels ?? []);
  // Whole words, any case unless the name is an acronym, spaces and hyphens alike, plurals too.
  const words = name
    .trim()
    .split(/[\s-]+/)
    .map(escapeRegExp)
    .join("[\\s-]+");
  const acronym = /^[A-Z0-9&]{2,}s?$/.test(name.trim());
  const pattern = `${acronym ? "" : "(?i)"}(?:^|[^\\pL\\pN])${words}(?:s|es)?(?:$|[^\\pL\\pN])`;
  const raw = await runGated(
    rt,
    // CONTAINS first, in its own clause: Kuzu evaluates both sides of an AND, and the Unicode
    // regular expression over every section is slow on the corpus; over the few sections
    // that contain the word, it is cheap.
    `MATCH (s:Section) WHERE ${scope.length > 0 ? `${scope.join(" AND ")} AND ` : ""}(lower(s.text) CONTAINS $needle OR lower(s.heading) CONTAINS $needle) WITH s WHERE regexp_matches(s.text, $pattern) OR regexp_matches(s.heading, $pattern) RETURN s.documentId AS doc, count(s) AS n, min(s.ordinal) AS first ORDER BY n DESC, doc`,
    { ...params, pattern, needle: (name.trim().split(/[\s-]+/)[0] ?? name).toLowerCase() },
  );
  const firsts = await Promise.all(
    raw.map(async (r) => {
      const [row] = await runGated(rt, "MATCH (s:Section) WHERE s.documentId = $doc AND s.ordinal = $ordinal RETURN s.id AS id", {
        doc: str(r.doc),
        ordinal: num(r.first),
      });
      return str(row?.id);
    }),
  );
  const names = await sectionsById(
    rt,
    firsts.filter((f) => f !== ""),
  );
  const list = truncate(
    rt,
    raw.flatMap((r, i): IntentRow[] => {
      const first = firsts[i] ?? "";
      const entry = names.get(first);
      if (entry === undefined) return [];
      return [
        {
          cells: [
            { name: "Document", value: entry.documentName },
            { name: "Sections mentioning it", value: String(num(r.n)) },
            { name: "First mention", value: shortSectionLabel(provisionLabel(entry.section.label)) },
          ],
          sectionId: first,
        },
      ];
    }),
  );
  return {
    columns: ["Document", "Sections mentioning it", "First mention"],
    rows: list.rows,
    focusSectionIds: [],
    summary:
      list.rows.length === 0
        ? `No imported document mentions “${name}”${inProvisions(within)}.`
        : `${list.rows.length} ${list.rows.length === 1 ? "document mentions" : "documents mention"} “${name}”${inProvisions(within)}.`,
    truncated: list.truncated,
  };
}

/** Runs the intent's queries and returns its rows, each with the section it rests on. */
export async function runIntent(rt: QueryRuntime, intent: GraphIntent): Promise<IntentResult> {
  switch (intent.kind) {
    case "cites":
      return cites(rt, intent);
    case "cited-by":
      return citedBy(rt, intent);
    case "defines":
      return defines(rt, intent.documentIds, intent.term, intent.labels);
    case "obligations":
      return obligations(rt, intent);
    case "deadlines":
      return deadlines(rt, intent);
    case "notify":
      return notify(rt, intent);
    case "structure":
      return structure(rt, intent);
    case "mentions":
      return mentions(rt, intent);
  }
}
