import type { QuestionAnalysis } from "../model/question-analysis-types.ts";
import { INTENT_NAMES } from "./graph-intent.ts";
import { parseGraphIntent, type ParsedIntent } from "./intent-parser.ts";

// Every question goes one of three ways, and says which and why under the answer:
// - graph: it asks for a list or a relation the graph holds exactly (who cites what, what a
//   document defines, a party's duties, every deadline, who notifies whom, the structure, which
//   documents mention a name) — a table of rows, each citing its section and page;
// - both: such a question that also names a topic ("who must notify whom of a personal data
//   breach?"): the text answer, and the graph's rows about that topic;
// - text: anything else (what a provision says, whether something is allowed, how, why) —
//   retrieval and the quoted or written answer. With a local model loaded, a question that
//   still reads like a list or relation is first put to the model as Cypher (llm-cypher.ts).
// A graph query that fails or finds nothing falls back to the text and says so.

export interface RouteDecision {
  route: "graph" | "text" | "both";
  reason: string;
  parsed: ParsedIntent | null;
  /** No pattern matched, but the question reads like a list or relation: a loaded model may write the query. */
  askModel: boolean;
}

// "which …", "list …", "how many …", "who …", "what sections/articles …": a question about the graph's shape.
const STRUCTURAL =
  /^(?:which|list|how many|count|who|whom|name all|show all|what (?:sections|articles|provisions|documents|terms|parties|entities|requirements|obligations|duties))\b|\b(?:which|how many)\s+(?:sections|articles|provisions|documents|terms|parties|requirements|obligations)\b/i;

export function routeQuestion(question: string, analysis: QuestionAnalysis, hasModel: boolean): RouteDecision {
  if (analysis.missingInstruments.length > 0) {
    return { route: "text", reason: `It names ${analysis.missingInstruments.join(", ")}, which no imported document is.`, parsed: null, askModel: false };
  }
  const parsed = parseGraphIntent(question, analysis);
  if (parsed !== null) {
    const name = INTENT_NAMES[parsed.intent.kind];
    if (parsed.topic.length > 0) {
      return {
        route: "both",
        reason: `It asks for ${name} about “${parsed.topic.join(" ")}”: the graph lists them, the text answers the rest.`,
        parsed,
        askModel: false,
      };
    }
    return { route: "graph", reason: `It asks for ${name}, which the graph holds exactly.`, parsed, askModel: false };
  }
  if (hasModel && STRUCTURAL.test(question.trim())) {
    return {
      route: "graph",
      reason: "It asks for a list or a relation no built-in pattern reads: the local model writes the graph query.",
      parsed: null,
      askModel: true,
    };
  }
  return { route: "text", reason: "It asks what the documents say: answered from the text.", parsed: null, askModel: false };
}
