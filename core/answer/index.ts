// Answers: reading the question (question/), composing the answer (compose/), and the audit
// trail of answers and conversations (history/). Other floors reach them through this file.
export { createLanguageResources, type LanguageResources } from "./language-resources.ts";
export { retrievalQuery } from "./question/answer-type-query.ts";
export { analysisScopeNamer } from "./question/follow-up-scope.ts";
export { fuseRewrites, rewriteQuestion, type QueryRewrite } from "./question/query-rewrite.ts";
export { answerHints, type QuestionAnalysis } from "./question/question-analysis.ts";
export { unmentionedNames } from "./question/question-names.ts";
export { questionReader } from "./question/question-reader.ts";
export { documentScope } from "./question/question-scope.ts";
export { labelAnswer } from "./compose/answer-model-label.ts";
export { answerQuestion } from "./compose/answer-question.ts";
export { ANSWER_CANDIDATES, rankForAnswer } from "./compose/answer-ranking.ts";
export { earlierPartsText } from "./compose/earlier-parts.ts";
export { asksPerInstrument, instrumentScopes, interleave, joinAnswers, type InstrumentScope } from "./compose/per-instrument.ts";
export { sentenceUnits, type SentenceUnit } from "./compose/sentence-units.ts";
export { answerLogRecord, createAnswerLogWriter, findAnswerLogRecords, readAnswerLog, type AnswerLogWriter } from "./history/answer-log.ts";
export { createConversations, readLibraryDocuments, type AskPlan, type Conversations } from "./history/conversations.ts";
export { citedFileName, documentIdOfSection, type LibraryDocuments } from "./history/reopen-answer.ts";
export { reopenedGraph } from "./history/reopened-graph.ts";
