import { provisionLabel, shortDocumentName, shortSectionLabel } from "../citations/index.ts";
import type { GraphValue } from "../model/store-records.ts";
import type { GatedQuery } from "./cypher-gate.ts";
import type { IntentResult, IntentRow, QueryRuntime } from "./intent-queries.ts";

// A model's query returns whatever it asked for: nodes, properties, counts. Before anything is
// shown, every value is turned into what an auditor reads: a section becomes "DORA Art. 19", a
// document its short name, an entity its name, a triplet its sentence-like triple; internal ids
// (a node's `_id`, the engine's section and entity ids) are looked up and never shown raw. Each
// row is tied to the first section it names (a section node, a section id, a fact's section); a
// row tied to none cannot be cited and is left out, and the summary says how many were.

const SECTION_ID = /^[0-9a-f]{16}:\S+$/;
const ENTITY_ID = /^[0-9a-f]{16}:e:(.+)$/;
const MAX_LIST_ITEMS = 10;
const MAX_CELL = 200;

type GraphMap = { [key: string]: GraphValue };

function isMap(v: GraphValue): v is GraphMap {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const text = (v: GraphValue | undefined): string => (typeof v === "string" ? v : "");

/** The section a value names, if any: a Section node, a section id, or the section of a fact. */
function sectionOf(v: GraphValue): string | null {
  if (typeof v === "string") return SECTION_ID.test(v) && !ENTITY_ID.test(v) ? v : null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const s = sectionOf(x);
      if (s !== null) return s;
    }
    return null;
  }
  if (!isMap(v)) return null;
  const label = text(v._label);
  if (label === "Section") return text(v.id) || null;
  const own = text(v.sectionId) || text(v.fromSectionId);
  return own === "" ? null : own;
}

export async function modelRows(rt: QueryRuntime, gated: GatedQuery): Promise<IntentResult> {
  rt.ran.push(gated.cypher);
  const raw = await rt.store.readOnlyQuery(gated.cypher, {}, { timeoutMs: rt.timeoutMs });
  const sectionIds = new Set<string>();
  const collect = (v: GraphValue): void => {
    if (typeof v === "string" && SECTION_ID.test(v) && !ENTITY_ID.test(v)) sectionIds.add(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (isMap(v)) {
      const s = sectionOf(v);
      if (s !== null) sectionIds.add(s);
    }
  };
  for (const r of raw) for (const v of Object.values(r)) collect(v);
  const found = await rt.store.getSectionsByIds([...sectionIds]);
  const sections = new Map(
    found.map(({ section, document }) => [section.id, `${shortDocumentName(document)} ${shortSectionLabel(provisionLabel(section.label))}`]),
  );
  const documents = new Map(found.map(({ document }) => [document.id, shortDocumentName(document)]));

  const show = (v: GraphValue): string => {
    if (v === null) return "";
    if (typeof v === "string") {
      const entity = ENTITY_ID.exec(v);
      if (entity !== null) return entity[1] ?? "";
      if (SECTION_ID.test(v)) return sections.get(v) ?? "(a section)";
      return v.length > MAX_CELL ? `${v.slice(0, MAX_CELL - 1)}…` : v;
    }
    if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
    if (v instanceof Date) return v.toISOString();
    if (Array.isArray(v))
      return (
        v
          .slice(0, MAX_LIST_ITEMS)
          .map(show)
          .filter((x) => x !== "")
          .join(", ") + (v.length > MAX_LIST_ITEMS ? ", …" : "")
      );
    // A node or relationship: what it is called, never its internal id.
    switch (text(v._label)) {
      case "Section":
        return sections.get(text(v.id)) ?? text(v.label);
      case "Document":
        return documents.get(text(v.id)) ?? text(v.title);
      case "Term":
        return text(v.term);
      case "Entity":
        return text(v.name);
      case "Triplet":
        return [text(v.subject), text(v.predicate), text(v.object)].filter((x) => x !== "").join(" ");
      case "Reference":
        return text(v.raw);
      case "Deadline":
        return text(v.text);
      default:
        return text(v._label);
    }
  };

  let uncited = 0;
  const rows: IntentRow[] = [];
  for (const r of raw) {
    const values = gated.columns.map((c) => r[c] ?? null);
    const sectionId = values.map(sectionOf).find((s): s is string => s !== null && sections.has(s));
    if (sectionId === undefined) {
      uncited++;
      continue;
    }
    rows.push({ cells: gated.columns.map((name, i) => ({ name, value: show(values[i] ?? null) })), sectionId });
  }
  const note = uncited > 0 ? ` ${uncited} ${uncited === 1 ? "row names" : "rows name"} no section and ${uncited === 1 ? "is" : "are"} not shown.` : "";
  return {
    columns: gated.columns,
    rows: rows.slice(0, rt.maxRows),
    focusSectionIds: [],
    summary: `${rows.length} ${rows.length === 1 ? "row" : "rows"} from the model's graph query.${note}`,
    truncated: rows.length > rt.maxRows,
  };
}
