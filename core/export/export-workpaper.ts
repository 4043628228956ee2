import { type Conversations, findAnswerLogRecords, type LibraryDocuments, readLibraryDocuments } from "../answer/index.ts";
import type { ExportFile, ExportFormat } from "../model/conversation-schemas.ts";
import { ClauseGraphError } from "../model/errors.ts";
import type { DocumentRecord } from "../model/store-records.ts";
import { workpaperHtml } from "./workpaper-html.ts";
import { workpaperMarkdown } from "./workpaper-markdown.ts";
import { type Workpaper, type WorkpaperTable, workpaperAnswer, workpaperFileName } from "./workpaper-model.ts";

// Exports of one answer or a whole conversation, as the engine offers them: read from the answer
// log (and the conversation's file for which answers, in which order), rendered as Markdown or as
// a printable HTML page.

export interface ExportDeps {
  dataDir: string;
  appVersion: string;
  listDocuments(): Promise<DocumentRecord[]>;
  conversations: Conversations;
  /** The table a logged graph answer showed (kept beside the answer log), or null. */
  graphTable?(logId: string): Promise<WorkpaperTable | null>;
}

export interface Exports {
  /** NOT_FOUND when the answer log has no record with this id. */
  answer(logId: string, format: ExportFormat): Promise<ExportFile>;
  /** NOT_FOUND when there is no such conversation. */
  conversation(id: string, format: ExportFormat): Promise<ExportFile>;
}

const MIME: Record<ExportFormat, string> = { md: "text/markdown;charset=utf-8", html: "text/html;charset=utf-8" };

export function renderWorkpaper(paper: Workpaper, format: ExportFormat): ExportFile {
  return {
    fileName: workpaperFileName(paper, format),
    mimeType: MIME[format],
    text: format === "md" ? workpaperMarkdown(paper) : workpaperHtml(paper),
  };
}

export function createExports(deps: ExportDeps): Exports {
  const documents = (): Promise<LibraryDocuments> => readLibraryDocuments(deps.dataDir, deps.listDocuments);

  return {
    async answer(logId, format) {
      const record = (await findAnswerLogRecords(deps.dataDir, [logId])).get(logId);
      if (record === undefined) throw new ClauseGraphError("NOT_FOUND", "That answer is not in the answer log");
      const paper: Workpaper = {
        kind: "answer",
        id: record.id,
        title: record.question,
        exportedWith: deps.appVersion,
        answers: [workpaperAnswer(record, await documents(), (await deps.graphTable?.(record.id)) ?? null)],
        gaps: [],
      };
      return renderWorkpaper(paper, format);
    },
    async conversation(id, format) {
      const [{ conversation, records }, docs] = await Promise.all([deps.conversations.load(id), documents()]);
      const answers = [];
      const gaps: string[] = [];
      for (const [i, turn] of conversation.turns.entries()) {
        const record = turn.logId === null ? undefined : records.get(turn.logId);
        if (record === undefined)
          gaps.push(`Question ${i + 1} (“${turn.question}”) has no answer in the answer log: it could not be recorded when it was asked.`);
        else answers.push(workpaperAnswer(record, docs, (await deps.graphTable?.(record.id)) ?? null));
      }
      const paper: Workpaper = {
        kind: "conversation",
        id: conversation.id,
        title: conversation.turns[0]?.question ?? "Empty conversation",
        exportedWith: deps.appVersion,
        answers,
        gaps,
      };
      return renderWorkpaper(paper, format);
    },
  };
}
