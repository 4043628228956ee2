import { ClauseGraphError } from "../../model/errors.ts";
import { readDeletedDocuments } from "../../store/deleted-documents.ts";
import type { DocumentRecord } from "../../model/store-records.ts";
import type { Subgraph } from "../../model/subgraph-types.ts";
import type { TripletRecord } from "../../model/graph-records.ts";
import { findAnswerLogRecords } from "./answer-log.ts";
import type { AnswerLogRecord } from "../../model/answer-log-schema.ts";
import type { AskResult } from "../../model/answer-types.ts";
import type { Conversation, ConversationSummary, ConversationTurn } from "../../model/conversation-schemas.ts";
import { createConversationStore, type StoredConversation } from "./conversation-store.ts";
import { decideFollowUp, type FollowUpDecision, type ScopeNamer } from "../question/follow-up.ts";
import { type LibraryDocuments, deletedDocumentNotes, reopenedResult } from "./reopen-answer.ts";

// Conversations as the engine offers them: create, list and search, reopen with every answer as
// it was given, delete; and, around an ask, the follow-up rule and the turn's record. Turns point
// at answer-log records (the audit trail), which are read back here, never copied.

export interface ConversationsDeps {
  dataDir: string;
  listDocuments(): Promise<DocumentRecord[]>;
  /** The graph of a reopened answer from the sections the library still has. */
  answerGraph(record: AnswerLogRecord): Promise<{ subgraph: Subgraph; triplets: TripletRecord[] }>;
}

/** What an ask in a conversation retrieves with, decided before retrieval. */
export interface AskPlan {
  conversationId: string;
  decision: FollowUpDecision;
  /** The question the next follow-up keeps the scope of. */
  scope: string;
}

export interface Conversations {
  create(): Promise<ConversationSummary>;
  /** Newest first; with a query, only those whose questions or answers hold all its words. */
  list(query?: string): Promise<ConversationSummary[]>;
  /** NOT_FOUND when there is no such conversation. */
  get(id: string): Promise<Conversation>;
  remove(id: string): Promise<{ deleted: boolean }>;
  /**
   * NOT_FOUND when there is no such conversation. `namesScope`: how a question names a scope of its
   * own (the caller's question analysis, so the question is read once per ask: follow-up-scope.ts).
   */
  plan(conversationId: string, question: string, namesScope: ScopeNamer): Promise<AskPlan>;
  /** Records the turn and returns the result marked with it (a failure to record is reported, not thrown). */
  record(plan: AskPlan, question: string, result: AskResult, logged: AnswerLogRecord | null, log: (message: string) => void): Promise<AskResult>;
  /** A conversation and the answer-log records of its turns (for the export). */
  load(id: string): Promise<{ conversation: StoredConversation; records: Map<string, AnswerLogRecord> }>;
}

const TITLE_CHARS = 120;

function logIdsOf(conversation: StoredConversation): string[] {
  return conversation.turns.flatMap((t) => (t.logId === null ? [] : [t.logId]));
}

/** Lower case without accents: "È" and "e", "perché" and "perche" match. */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

function queryWords(query: string): string[] {
  return fold(query).match(/[\p{L}\p{N}]+/gu) ?? [];
}

function summary(c: StoredConversation): ConversationSummary {
  const first = c.turns[0]?.question.replace(/\s+/g, " ").trim() ?? "";
  return {
    id: c.id,
    title: first === "" ? "New conversation" : first.length > TITLE_CHARS ? `${first.slice(0, TITLE_CHARS - 1)}…` : first,
    createdAt: c.createdAt,
    updatedAt: c.turns.at(-1)?.at ?? c.createdAt,
    turnCount: c.turns.length,
  };
}

/** The library's documents now, and those deleted from it: what a past answer's citations are named by. */
export async function readLibraryDocuments(dataDir: string, listDocuments: () => Promise<DocumentRecord[]>): Promise<LibraryDocuments> {
  const [live, deleted] = await Promise.all([listDocuments(), readDeletedDocuments(dataDir)]);
  return { live: new Map(live.map((d) => [d.id, d])), deleted };
}

export function createConversations(deps: ConversationsDeps): Conversations {
  const store = createConversationStore(deps.dataDir);

  async function mustRead(id: string): Promise<StoredConversation> {
    const conversation = await store.read(id);
    if (conversation === null) throw new ClauseGraphError("NOT_FOUND", "That conversation does not exist (it may have been deleted)");
    return conversation;
  }

  async function reopenTurn(
    turn: StoredConversation["turns"][number],
    record: AnswerLogRecord | undefined,
    documents: LibraryDocuments,
  ): Promise<ConversationTurn> {
    const base = { at: turn.at, question: turn.question, askedAs: turn.askedAs, followUpReason: turn.followUpReason, logId: turn.logId };
    if (record === undefined) {
      return {
        ...base,
        result: null,
        notes: [
          turn.logId === null
            ? "This answer could not be recorded when it was given (the answer log was not writable)."
            : "This answer is no longer in the answer log.",
        ],
      };
    }
    const graph = await deps.answerGraph(record);
    const result: AskResult = {
      ...reopenedResult(record, documents),
      ...graph,
      ...(turn.followUpReason !== null && turn.askedAs !== null ? { followUp: { question: turn.askedAs, reason: turn.followUpReason } } : {}),
    };
    return { ...base, result, notes: deletedDocumentNotes(record, documents) };
  }

  return {
    async create() {
      return summary(await store.create());
    },
    async list(query) {
      const all = await store.list();
      const words = queryWords(query ?? "");
      let kept = all;
      if (words.length > 0) {
        const records = await findAnswerLogRecords(deps.dataDir, all.flatMap(logIdsOf));
        kept = all.filter((c) => {
          const text = fold(
            c.turns
              .flatMap((t) => {
                const r = t.logId === null ? undefined : records.get(t.logId);
                return [t.question, r?.answer ?? "", ...(r?.citations.map((x) => `${x.label} ${x.file ?? ""}`) ?? [])];
              })
              .join("\n"),
          );
          return words.every((w) => text.includes(w));
        });
      }
      return kept.map(summary).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    },
    async get(id) {
      const conversation = await mustRead(id);
      const [records, documents] = await Promise.all([
        findAnswerLogRecords(deps.dataDir, logIdsOf(conversation)),
        readLibraryDocuments(deps.dataDir, deps.listDocuments),
      ]);
      const turns = await Promise.all(conversation.turns.map((t) => reopenTurn(t, t.logId === null ? undefined : records.get(t.logId), documents)));
      return { ...summary(conversation), turns };
    },
    async remove(id) {
      return { deleted: await store.remove(id) };
    },
    async plan(conversationId, question, namesScope) {
      const conversation = await mustRead(conversationId);
      const previous = conversation.turns.at(-1)?.scope ?? null;
      const decision = decideFollowUp(previous, question, namesScope);
      return { conversationId, decision, scope: decision.followUp && previous !== null ? previous : decision.question };
    },
    async record(plan, question, result, logged, log) {
      const { decision } = plan;
      try {
        await store.appendTurn(plan.conversationId, {
          at: logged?.askedAt ?? new Date().toISOString(),
          question,
          askedAs: decision.followUp ? decision.question : null,
          followUpReason: decision.followUp ? decision.reason : null,
          scope: plan.scope,
          logId: logged?.id ?? null,
        });
      } catch (err) {
        log(`the answer was not recorded in conversation ${plan.conversationId}: ${err instanceof Error ? err.message : String(err)}`);
      }
      return {
        ...result,
        conversationId: plan.conversationId,
        ...(decision.followUp ? { followUp: { question: decision.question, reason: decision.reason } } : {}),
      };
    },
    async load(id) {
      const conversation = await mustRead(id);
      return { conversation, records: await findAnswerLogRecords(deps.dataDir, logIdsOf(conversation)) };
    },
  };
}
