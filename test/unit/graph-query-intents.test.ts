import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../core/answer/question/question-analysis.ts";
import { createLanguageResources } from "../../core/answer/language-resources.ts";
import type { GraphIntent } from "../../core/graph-query/graph-intent.ts";
import { parseGraphIntent } from "../../core/graph-query/intent-parser.ts";
import { routeQuestion } from "../../core/graph-query/route-question.ts";
import { libraryNames } from "../../core/model/document-names.ts";

// One set of pipelines for the file, as an engine keeps one (language-resources.ts).
const resources = createLanguageResources();

// The typed intent parser and the router (core/graph-query/): which questions the graph answers
// exactly, with which parameters, and which go to the text. Pure: no store.

const LIBRARY = libraryNames([
  { id: "dora", title: "Regulation (EU) 2022/2554 on digital operational resilience", aliases: ["DORA", "Regulation (EU) 2022/2554"], fileName: "dora.pdf" },
  { id: "gdpr", title: "Regulation (EU) 2016/679 General Data Protection Regulation", aliases: ["GDPR", "Regulation (EU) 2016/679"], fileName: "gdpr.pdf" },
  { id: "hipaa", title: "HIPAA Administrative Simplification", aliases: ["HIPAA"], fileName: "hipaa.pdf" },
]);

function intent(question: string): GraphIntent | null {
  return parseGraphIntent(question, analyzeQuestion(question, LIBRARY, resources))?.intent ?? null;
}

describe("graph intents", () => {
  it("reads citations into and out of a provision", () => {
    expect(intent("Which articles refer to Article 19 of DORA?")).toMatchObject({
      kind: "cites",
      labels: ["Article 19"],
      documentIds: ["dora"],
      citingDocumentIds: [],
    });
    expect(intent("Which sections of HIPAA cite § 164.308?")).toMatchObject({ kind: "cites", labels: ["§ 164.308"], citingDocumentIds: ["hipaa"] });
    expect(intent("Where is Article 33 of the GDPR referred to?")).toMatchObject({ kind: "cites", labels: ["Article 33"], documentIds: ["gdpr"] });
    expect(intent("What does Article 24 of DORA refer to?")).toMatchObject({ kind: "cited-by", labels: ["Article 24"], documentIds: ["dora"] });
    expect(intent("What provisions are cited in Article 12 of the GDPR?")).toMatchObject({ kind: "cited-by", labels: ["Article 12"] });
  });

  it("reads defined terms, one or a document's list", () => {
    expect(intent("Where is 'business associate' defined?")).toMatchObject({ kind: "defines", term: "business associate" });
    expect(intent("Which terms does DORA define?")).toMatchObject({ kind: "defines", documentIds: ["dora"] });
    expect(intent("Which terms does DORA define?")).not.toHaveProperty("term");
    expect(intent("Which terms does DORA define?")).not.toHaveProperty("labels");
    // A named provision narrows the list to the terms it defines, in any document holding it or in the one named.
    expect(intent("Which terms are defined in § 164.304?")).toMatchObject({ kind: "defines", labels: ["§ 164.304"] });
    expect(intent("Which terms are defined in Article 4 of the GDPR?")).toMatchObject({ kind: "defines", labels: ["Article 4"], documentIds: ["gdpr"] });
  });

  it("reads a party's obligations, with a deadline or a modality", () => {
    expect(intent("What must the lead overseer do within a time limit under DORA?")).toMatchObject({
      kind: "obligations",
      withDeadline: true,
      documentIds: ["dora"],
      modalities: ["must", "must not"],
    });
    expect(intent("What are the obligations of the data protection officer?")).toMatchObject({
      kind: "obligations",
      party: "data protection officer",
      withDeadline: false,
    });
    expect(intent("What may a controller do?")).toMatchObject({ kind: "obligations", modalities: ["may"] });
    expect(intent("What must a processor not do?")).toMatchObject({ kind: "obligations", modalities: ["must not"] });
  });

  it("keeps the provisions a deadline, notification or obligation question names (DORA, GDPR, HIPAA)", () => {
    expect(intent("List every deadline in Article 19 of DORA")).toMatchObject({ kind: "deadlines", labels: ["Article 19"], documentIds: ["dora"], topic: [] });
    expect(intent("What must the controller do under Article 28 of the GDPR?")).toMatchObject({
      kind: "obligations",
      party: "controller",
      labels: ["Article 28"],
      documentIds: ["gdpr"],
    });
    expect(intent("Who must notify whom under § 164.410 of HIPAA?")).toMatchObject({
      kind: "notify",
      labels: ["§ 164.410"],
      documentIds: ["hipaa"],
      topic: [],
    });
    expect(intent("Who must notify the supervisory authority under Article 33?")).toMatchObject({
      kind: "notify",
      recipient: "supervisory authority",
      labels: ["Article 33"],
    });
    // Naming none, they keep every provision.
    expect(intent("List every deadline NIST SP 800-171 sets")).not.toHaveProperty("labels");
    expect(intent("Who must notify whom under HIPAA about a breach?")).not.toHaveProperty("labels");
  });

  it("keeps the party a deadline or notification question names: the party bound, the party telling", () => {
    expect(intent("Which deadlines apply to processors under the GDPR?")).toEqual({ kind: "deadlines", documentIds: ["gdpr"], topic: [], party: "processors" });
    expect(intent("What are the deadlines of the controller under the GDPR about breaches?")).toMatchObject({
      kind: "deadlines",
      party: "controller",
      topic: ["breaches"],
    });
    expect(intent("List every deadline in Article 19 of DORA")).not.toHaveProperty("party");
    expect(intent("Whom must the processor notify under the GDPR?")).toEqual({ kind: "notify", documentIds: ["gdpr"], party: "processor", topic: [] });
    expect(intent("Whom does a covered entity have to notify under HIPAA about a breach?")).toMatchObject({
      kind: "notify",
      party: "covered entity",
      topic: ["breach"],
    });
    // The party told stays the recipient.
    expect(intent("Who must notify the supervisory authority under Article 33?")).not.toHaveProperty("party");
  });

  it("reads deadlines, notifications, structure and mentions", () => {
    expect(intent("List every deadline NIST SP 800-171 sets")).toMatchObject({ kind: "deadlines" });
    expect(intent("Who must notify whom under HIPAA about a breach?")).toMatchObject({ kind: "notify", documentIds: ["hipaa"], topic: ["breach"] });
    expect(intent("Who must notify the Lead Overseer?")).toMatchObject({ kind: "notify", recipient: "Lead Overseer" });
    expect(intent("What is the parent of Article 28 of DORA?")).toMatchObject({ kind: "structure", relation: "parent", labels: ["Article 28"] });
    expect(intent("Which articles are in Chapter III of DORA?")).toMatchObject({ kind: "structure", relation: "children", labels: ["Chapter III"] });
    expect(intent("What are the siblings of Article 19 of DORA?")).toMatchObject({ kind: "structure", relation: "siblings" });
    expect(intent("Which documents mention TLPT?")).toEqual({ kind: "mentions", name: "TLPT" });
    // In a provision, the name is asked about there (it was read as a citation question).
    expect(intent("Which documents mention TLPT in Article 26?")).toEqual({ kind: "mentions", name: "TLPT", labels: ["Article 26"] });
    expect(intent("Which documents mention 'business associate' in § 164.504?")).toEqual({
      kind: "mentions",
      name: "business associate",
      labels: ["§ 164.504"],
    });
    expect(intent("Quali documenti menzionano 'stazione appaltante'?")).toEqual({ kind: "mentions", name: "stazione appaltante" });
  });

  it("leaves what the text answers to the text", () => {
    for (const q of [
      "What does Article 19 of DORA say?",
      "What is a personal data breach?",
      "Is a controller allowed to transfer data to a third country?",
      "How should ICT risk be managed?",
      "Why was DORA adopted?",
      "Which technical and organisational security measures does GDPR Article 32 mention?",
      "What safeguards does Article 19 of DORA refer to?",
    ]) {
      expect(intent(q), q).toBeNull();
    }
  });
});

describe("routing", () => {
  const route = (q: string, hasModel = false) => routeQuestion(q, analyzeQuestion(q, LIBRARY, resources), hasModel);

  it("sends exact questions to the graph, exact questions with a topic to both, the rest to the text, each with a reason", () => {
    expect(route("Which articles refer to Article 19 of DORA?")).toMatchObject({
      route: "graph",
      reason: expect.stringContaining("sections citing a provision"),
    });
    expect(route("Who must notify whom of a personal data breach under the GDPR?")).toMatchObject({
      route: "both",
      reason: expect.stringContaining("personal data breach"),
    });
    expect(route("What does Article 19 of DORA say?")).toMatchObject({ route: "text", reason: expect.stringContaining("text") });
  });

  it("puts a list question no pattern reads to a loaded model, and never without one", () => {
    expect(route("Which parties are named in the supervisory chapters?", true)).toMatchObject({ route: "graph", parsed: null, askModel: true });
    expect(route("Which parties are named in the supervisory chapters?", false)).toMatchObject({ route: "text", askModel: false });
  });

  it("refuses to route a question naming an instrument the library lacks", () => {
    expect(route("Which articles of NIS2 refer to Article 21?")).toMatchObject({
      route: "text",
      parsed: null,
      reason: expect.stringContaining("no imported document"),
    });
  });
});
