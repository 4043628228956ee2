import type { LibraryNames, QuestionAnalysis } from "../../model/question-analysis-types.ts";
import type { LanguageResources } from "../language-resources.ts";
import { analyzeQuestion } from "./question-analysis.ts";

// One ask's readings of its question, by text: the follow-up rule (follow-up-scope.ts) and the
// answer read the same text once between them, against the same library, and pass the reading
// down instead of analysing it again.

export function questionReader(library: LibraryNames, resources: LanguageResources): (question: string) => QuestionAnalysis {
  const readings = new Map<string, QuestionAnalysis>();
  return (question) => {
    let reading = readings.get(question);
    if (reading === undefined) {
      reading = analyzeQuestion(question, library, resources);
      readings.set(question, reading);
    }
    return reading;
  };
}
