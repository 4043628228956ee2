import type { QuestionAnalysis } from "../model/question-analysis-types.ts";
import type { Modality } from "../model/graph-records.ts";
import type { GraphIntent } from "./graph-intent.ts";
import { partyTypeOfName } from "../extract/party-types.ts";

// Questions the graph answers exactly, read by rules over the question and its analysis
// (core/answer/question/question-analysis.ts: the documents, provisions and parties it names): "which
// articles refer to Article 19?", "what does Article 28 cite?", "which terms does DORA define?",
// "where is 'business associate' defined?", "what must a business associate do?", "list every
// deadline DORA sets", "who must notify whom?", "which articles are in Chapter III?", "which
// documents mention TLPT?". A question that asks something else (what a term means, whether
// something is allowed, how to do it) is not a graph question: it is answered from the text.

export interface ParsedIntent {
  intent: GraphIntent;
  /** Words the question adds to the pattern ("… of a personal data breach"): rows are narrowed to them and the text answers too. */
  topic: string[];
}

const norm = (q: string): string =>
  q
    .replace(/[’‘`´]/g, "'")
    .replace(/[“”«»]/g, '"')
    .replace(/\s+/g, " ")
    .trim();

/** A name in quotes ("'business associate'"), else the words after the pattern, cleaned. */
function quotedOr(question: string, tail: string | undefined): string | null {
  const quoted = /["']([^"']{2,80})["']/.exec(question);
  if (quoted?.[1] !== undefined) return quoted[1].trim();
  if (tail === undefined) return null;
  const cleaned = tail
    .replace(/\?+\s*$/, "")
    .replace(
      /\s+(?:under|in|of|within|according to|pursuant to|per)\s+(?:the\s+)?(?:gdpr|dora|hipaa|nist.*|regulation.*|directive.*|library|corpus|documents?)\s*$/i,
      "",
    )
    .replace(/^(?:the|a|an|any|term|the term|word|the word|phrase|the phrase)\s+/i, "")
    .trim();
  return cleaned.length >= 2 && cleaned.length <= 80 ? cleaned : null;
}

/** A provision named at the end of a question ("… in Article 26 of DORA?"), to be cut from a name before it. */
const PROVISION_TAIL = /\s+(?:in|under|within)\s+(?:the\s+)?(?:Article|Art\.|§|Section|Chapter|Annex|Appendix|Part|Subpart)\s*\S.*$/i;

// Labels the question analysis does not read as provisions.
const STRUCTURE_LABEL = /\b(Chapter|Section|Subpart|Part|Title|Annex|Appendix)\s+([IVXLC]+|\d+(?:\.\d+)*|[A-Z])\b/gi;

function provisionLabels(question: string, analysis: QuestionAnalysis): string[] {
  const labels = new Set(analysis.provisionLabels);
  for (const m of question.matchAll(STRUCTURE_LABEL)) {
    const kind = (m[1] ?? "").toLowerCase().replace(/^./, (c) => c.toUpperCase());
    const value = /^[ivxlc]+$/i.test(m[2] ?? "") || /^[a-z]$/i.test(m[2] ?? "") ? (m[2] ?? "").toUpperCase() : (m[2] ?? "");
    labels.add(`${kind} ${value}`);
  }
  // "Section 3.1" read as "3.1" by the analysis: keep the label the document prints.
  for (const l of [...labels]) if (/^\d+\.\d+$/.test(l) && labels.has(`Section ${l}`)) labels.delete(l);
  return [...labels];
}

/** Where in the question the first provision is printed, or -1. */
function provisionIndex(question: string, analysis: QuestionAnalysis, labels: readonly string[]): number {
  const raws = [...analysis.scope.provisions, ...labels];
  const found = raws.map((r) => question.toLowerCase().indexOf(r.toLowerCase())).filter((i) => i >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

// Words that belong to the intents' own patterns (or to any question), not to a topic.
const PATTERN_WORDS = new Set(
  (
    "obligation obligations duty duties must shall should may can do does did have has required require requires obliged prohibited allowed permitted " +
    "deadline deadlines time limit limits period periods set sets every all list notify notifies notified notification inform informs report reports " +
    "communicate communicates whom who which what where when how why by within under article articles section sections term terms define defined " +
    "definition definitions document documents regulation regulations mention mentions cite cites refer refers reference references party parties " +
    "not the a an of to in on for with and or is are be been was were it its their this that these those any each from about regarding concerning " +
    "under according pursuant case cases there them they what whose whether than then also only other such same apply applies binding imposed"
  ).split(" "),
);

/** The question's own words beyond its pattern, the party and the documents' names: what rows are narrowed to. */
function topicOf(question: string, analysis: QuestionAnalysis, exclude: readonly string[]): string[] {
  const skip = new Set([...exclude, ...analysis.scope.instruments, ...analysis.scope.parties].flatMap((x) => x.toLowerCase().split(/[^\p{L}\p{N}]+/u)));
  const words = question.toLowerCase().split(/[^\p{L}\p{N}-]+/u);
  return [...new Set(words.filter((w) => w.length >= 4 && !PATTERN_WORDS.has(w) && !skip.has(w) && !/^\d/.test(w) && !/^(?:gdpr|dora|hipaa|nist)$/.test(w)))];
}

function modalitiesOf(q: string): Modality[] {
  if (/\b(?:must|shall)\s+(?:\S+\s+){0,5}not\s+do\b|\bprohibited\b|\bmust not\b|\bforbidden\b|\bprohibitions?\b/i.test(q)) return ["must not"];
  if (/\b(?:may|can|allowed|permitted|permissions?)\b/i.test(q) && !/\bmust\b|\bshall\b|\bobligations?\b/i.test(q)) return ["may"];
  if (/\bshould\b|\brecommendations?\b/i.test(q)) return ["should", "should not"];
  return ["must", "must not"];
}

const WITH_DEADLINE =
  /\b(?:with\s+(?:a\s+|their\s+)?(?:deadlines?|time[- ]limits?)|within\s+(?:a\s+)?(?:deadline|time[- ]limit)|by\s+when|and\s+when|deadlines?|time[- ]limits?)\b/i;

function partyOf(q: string, analysis: QuestionAnalysis): string | null {
  const named = analysis.scope.parties[0];
  if (named !== undefined) return named;
  const patterns = [
    /\b(?:obligations?|duties|responsibilities)\s+(?:of|for|on|imposed on)\s+(?:the\s+|a\s+|an\s+|each\s+|every\s+)?(.+?)(?:\s+(?:under|in|with|within|according|pursuant|when|if|and|by)\b|\?|$)/i,
    /\bwhat\s+(?:must|shall|should|may|can|has to|have to|is required to|are required to)\s+(?:the\s+|a\s+|an\s+|each\s+|every\s+)?(.+?)\s+(?:not\s+)?do\b/i,
    /\bwhat\s+(?:is|are)\s+(?:the\s+|a\s+|an\s+)?(.+?)\s+(?:required|obliged|prohibited|allowed|permitted)\s+(?:to|from)\b/i,
    /\b(?:the\s+)?(.+?)'s\s+(?:obligations|duties|responsibilities)\b/i,
  ];
  for (const re of patterns) {
    const m = re.exec(q);
    const party = m?.[1]?.trim();
    if (party !== undefined && party.length >= 3 && party.split(" ").length <= 6) return party.replace(/^(?:the|a|an)\s+/i, "");
  }
  return null;
}

/** The party a notification question asks about as the one telling: "whom must the processor notify?". */
function tellerOf(q: string, notifyVerb: string): string | null {
  const m = new RegExp(
    String.raw`\bwhom?\s+(?:must|shall|should|does|do|has|have|is|are)\s+(?:the\s+|a\s+|an\s+)?(.+?)\s+(?:(?:have|has|need|needs|required|obliged)\s+to\s+)?${notifyVerb}\b`,
    "i",
  ).exec(q);
  const party = m?.[1]?.trim();
  return party !== undefined && partyTypeOfName(party) !== null ? party : null;
}

/** The party a deadlines question binds: "which deadlines apply to processors?", "the deadlines of the controller". */
function boundParty(q: string): string | null {
  const m =
    /\b(?:apply|applies|applying|binding|imposed)\s+(?:to|on)\s+(?:the\s+|a\s+|an\s+|each\s+|every\s+)?(.+?)(?:\s+(?:under|in|of|about|when|if)\b|\?|$)/i.exec(
      q,
    ) ?? /\b(?:deadlines|time[- ]limits)\s+(?:of|for)\s+(?:the\s+|a\s+|an\s+|each\s+|every\s+)?(.+?)(?:\s+(?:under|in|about|when|if)\b|\?|$)/i.exec(q);
  const party = m?.[1]?.trim();
  return party !== undefined && partyTypeOfName(party) !== null ? party : null;
}

/**
 * The graph question a question asks, or null when it is not one. Pure: the analysis carries what
 * the library knows (document names); the section labels are matched when the query runs.
 */
export function parseGraphIntent(question: string, analysis: QuestionAnalysis): ParsedIntent | null {
  const q = norm(question);
  const lower = q.toLowerCase();
  const documentIds = analysis.scope.documentIds;
  const labels = provisionLabels(q, analysis);
  // Rule "a graph question keeps the provisions it names": "every deadline in Article 19 of DORA"
  // lists that article's, not DORA's.
  const within = labels.length > 0 ? { labels } : {};

  // Which documents mention a name.
  const mentions =
    /\b(?:which|what)\s+(?:documents?|regulations?|acts?|texts?|files?|publications?|sources?)\s+(?:mention|mentions|refer to|refers to|use|uses|name|names|talk about|talks about|speak of|discuss|discusses|contain|contains)\s+(.+)$/i.exec(
      q,
    ) ??
    /\bin\s+which\s+(?:documents?|regulations?|texts?)\s+(?:is|are)\s+(.+?)\s+(?:mentioned|used|named|discussed)\b/i.exec(q) ??
    /\bquali\s+documenti\s+(?:menzionano|citano|nominano|parlano\s+di|contengono)\s+(.+)$/i.exec(q);
  if (mentions !== null) {
    // "Which documents mention TLPT in Article 26?": the name, in the provisions named.
    const tail = labels.length === 0 ? mentions[1] : mentions[1]?.replace(PROVISION_TAIL, "");
    const name = quotedOr(q, tail);
    if (name !== null && !labels.some((l) => name.toLowerCase().includes(l.toLowerCase()))) return { intent: { kind: "mentions", name, ...within }, topic: [] };
  }

  // Who must notify whom (or a named party).
  const notifyVerb = String.raw`(?:notify|notifies|inform|informs|report|reports|communicate|communicates|alert|alerts|tell|tells|submit|submits|transmit|transmits)`;
  if (
    new RegExp(
      String.raw`\bwho\b.*\b${notifyVerb}\b.*\bwhom\b|\bnotification\s+(?:duties|obligations|requirements|chain)\b|\bwho\s+(?:notifies|informs|reports\s+to)\s+whom\b`,
      "i",
    ).test(q)
  ) {
    const topic = topicOf(q, analysis, labels);
    return { intent: { kind: "notify", documentIds, topic, ...within }, topic };
  }
  // "Whom must the processor notify?": the party telling.
  const telling = tellerOf(q, notifyVerb);
  if (telling !== null) {
    const topic = topicOf(q, analysis, [telling, ...labels]);
    return { intent: { kind: "notify", documentIds, party: telling, topic, ...within }, topic };
  }
  const notifyParty = new RegExp(
    String.raw`\bwho\s+(?:must|shall|has to|have to|should|is required to|are required to|needs to|need to)\s+${notifyVerb}(?:\s+to)?\s+(?:the\s+|a\s+|an\s+)?(.+?)(?:\s+(?:under|in|of|about|when|if|within)\b|\?|$)`,
    "i",
  ).exec(q);
  if (notifyParty?.[1] !== undefined) {
    // "Who must notify the supervisory authority?" names the party told; "who must notify a
    // personal data breach?" names what is notified: a topic.
    const told = notifyParty[1].replace(/[,;].*$/, "").trim();
    if (partyTypeOfName(told) !== null) {
      const topic = topicOf(q, analysis, [told, ...labels]);
      return { intent: { kind: "notify", documentIds, recipient: told, topic, ...within }, topic };
    }
    const topic = topicOf(q, analysis, labels);
    return { intent: { kind: "notify", documentIds, topic, ...within }, topic };
  }

  // Obligations of a party (optionally with a deadline or a modality).
  const obligationAsk =
    /\b(?:obligations?|duties|responsibilities)\s+(?:of|for|on|imposed on)\b|\bwhat\s+(?:must|shall|should|may|can|has to|have to|is required to|are required to)\s+.+?\s+do\b|\bwhat\s+(?:is|are)\s+.+?\s+(?:required|obliged|prohibited|allowed|permitted)\s+(?:to|from)\b|'s\s+(?:obligations|duties|responsibilities)\b|\bobblighi\s+(?:del|della|dell'|dei|degli)\b/i.test(
      q,
    );
  if (obligationAsk) {
    const party = partyOf(q, analysis);
    if (party !== null) {
      const topic = topicOf(q, analysis, [party, ...labels]);
      return {
        intent: { kind: "obligations", party, documentIds, modalities: modalitiesOf(lower), withDeadline: WITH_DEADLINE.test(q), topic, ...within },
        topic,
      };
    }
  }

  // Every deadline (a list of them, not the time limit of one thing: that is a text answer).
  if (
    /\b(?:deadlines|time[- ]limits|time periods|timelines|due dates|termini|scadenze)\b|\b(?:every|all|each|list(?:\s+of)?)\s+(?:the\s+)?(?:deadline|time[- ]limit)s?\b/i.test(
      q,
    )
  ) {
    const party = boundParty(q);
    const topic = topicOf(q, analysis, party === null ? labels : [party, ...labels]);
    return { intent: { kind: "deadlines", documentIds, topic, ...(party === null ? {} : { party }), ...within }, topic };
  }

  // Defined terms: where one is defined, or the list a document defines.
  const whereDefined =
    /\bwhere\s+(?:is|are)\s+(.+?)\s+defined\b/i.exec(q) ??
    /\b(?:which|what)\s+(?:section|article|provision|paragraph|part)\s+defines\s+(.+?)(?:\?|$)/i.exec(q) ??
    /\bin\s+which\s+(?:section|article|provision|paragraph|document)\s+(?:is|are)\s+(.+?)\s+defined\b/i.exec(q) ??
    /\bdove\s+(?:è|e'|sono)\s+definit[oaie]\s+(.+?)(?:\?|$)/i.exec(q);
  if (whereDefined !== null) {
    const term = quotedOr(q, whereDefined[1]);
    if (term !== null) return { intent: { kind: "defines", documentIds, term }, topic: [] };
  }
  if (
    /\b(?:which|what)\s+terms?\s+(?:does|do|did|are|is)\b.*\bdefine[sd]?\b|\b(?:list|all|every)\b.*\b(?:definitions|defined terms)\b|\bdefined\s+terms\b|\bwhat\s+does\s+.+\s+define\b|\bquali\s+termini\b.*\bdefini/i.test(
      q,
    )
  ) {
    return { intent: { kind: "defines", documentIds, ...(labels.length > 0 ? { labels } : {}) }, topic: [] };
  }

  if (labels.length === 0) return null;
  const target = { labels, documentIds };
  // Citations: into the provision, or out of it.
  const at = provisionIndex(q, analysis, labels);
  const citeVerb =
    /\b(?:cite|cites|citing|cited|refer(?:s|red|ring)?\s+to|reference|references|referencing|referenced|point(?:s)?\s+to|mention|mentions|mentioned|cross[- ]references?)\b/i;
  const verb = citeVerb.exec(q);
  // "Which security measures does Article 32 mention?" asks for what the text says, not for the
  // provisions it cites: a wh-object that names no provision, document or reference goes to text.
  const askedFor = verb === null ? null : /\b(?:which|what)\s+(.+?)\s+(?:does|do|did|is|are)\b/i.exec(q.slice(0, verb.index));
  const asksForThings =
    askedFor !== null &&
    !/\b(?:articles?|sections?|provisions?|paragraphs?|recitals?|regulations?|directives?|acts?|laws?|rules?|documents?|standards?|parts?|subparts?|chapters?|annex(?:es)?|references?|citations?|cross[- ]references?|other|texts?|publications?)\b/i.test(
      askedFor[1] ?? "",
    );
  if (verb !== null && at >= 0 && !asksForThings) {
    const outgoingPassive = /\b(?:cited|referenced|referred\s+to|mentioned)\s+(?:in|by|from)\s+/i.test(q.slice(verb.index, at + 1));
    const crossRefsOf = /\bcross[- ]references?\s+(?:in|of|from|made\s+by)\b/i.test(q);
    const doesX = at < verb.index && /\b(?:does|do|did)\b/i.test(q.slice(0, verb.index));
    if (outgoingPassive || crossRefsOf || doesX) return { intent: { kind: "cited-by", ...target }, topic: [] };
    // "Which sections of HIPAA cite § 164.308?": the citing sections are HIPAA's; "Which sections
    // cite § 164.308 of HIPAA?": any document's.
    const citingScoped = /\b(?:sections?|articles?|provisions?|requirements?|paragraphs?|parts?|recitals?)\s+(?:of|in)\s+(?:the\s+)?\S/i.test(
      q.slice(0, verb.index),
    );
    return { intent: { kind: "cites", citingDocumentIds: citingScoped ? documentIds : [], ...target }, topic: [] };
  }
  // Structure: parent, children, siblings.
  if (/\bsiblings?\b|\bsame\s+(?:chapter|section|part|subpart|title)\s+as\b|\bneighbou?ring\s+(?:articles|sections)\b/i.test(q)) {
    return { intent: { kind: "structure", relation: "siblings", ...target }, topic: [] };
  }
  if (
    /\bparent\b|\bwhich\s+(?:chapter|section|part|subpart|title)\s+(?:contains|includes|holds)\b|\b(?:in|under)\s+which\s+(?:chapter|section|part|subpart|title|heading)\b|\bwhat\s+(?:chapter|section|part|subpart|title)\s+is\b|\bbelongs?\s+to\b/i.test(
      q,
    )
  ) {
    return { intent: { kind: "structure", relation: "parent", ...target }, topic: [] };
  }
  if (
    /\bchildren\b|\bsub-?sections\b|\bsubdivisions\b|\bwhat\s+(?:does|do)\s+.+\s+(?:contain|include)\b|\b(?:which|what)\s+(?:articles|sections|requirements|paragraphs|provisions|subparts|parts|chapters|rules|tasks|controls|subsections)\s+(?:are|does|do)\s+(?:\w+\s+)?(?:in|under|within|part of|contain)\b|\b(?:articles|sections|requirements|provisions|subparts|tasks|controls)\s+(?:of|in|under)\s+(?:chapter|section|subpart|part|title)\b|\bcontents?\s+of\b|\blist\s+(?:the\s+)?(?:articles|sections|requirements|subparts)\b/i.test(
      q,
    )
  ) {
    return { intent: { kind: "structure", relation: "children", ...target }, topic: [] };
  }
  return null;
}
