import { randomUUID } from "node:crypto";
import { open, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { ClauseGraphError } from "../../model/errors.ts";
import { appendLine, readJsonLines } from "../../files/json-lines.ts";
import { type ConversationLine, type ConversationTurnLine, conversationIdSchema, conversationLineSchema } from "../../model/conversation-schemas.ts";

// Where conversations live: one JSON-lines file per conversation in `<dataDir>/conversations/`,
// 0600 in a 0700 folder, like the answer log. Why files and not a Kuzu table: a conversation must
// outlive what the database goes through (schema migrations, a library rebuilt from its kept
// copies after damage, which starts a new database); appending a turn must not wait behind an
// import holding Kuzu's single write transaction for a minute; and an append-only file whose
// lines are each fsynced is crash-safe by construction: a crash tears at most the last line,
// which readers skip, so earlier turns are never lost. One file per conversation makes deleting
// one an unlink (its questions are really gone from the conversations; the answer log, the audit
// trail, keeps the answers) and keeps a torn line from touching any other conversation.
//
// A file holds a "created" line, then one "turn" line per answer: the question, how it was
// retrieved, and the id of the answer's record in the answer log — the answer is not copied.

export const CONVERSATIONS_DIR = "conversations";

export interface StoredConversation {
  id: string;
  createdAt: string;
  turns: ConversationTurnLine[];
}

export type NewTurn = Omit<ConversationTurnLine, "v" | "kind">;

export interface ConversationStore {
  create(now?: Date): Promise<StoredConversation>;
  /** null when there is no such conversation (or it was deleted). */
  read(id: string): Promise<StoredConversation | null>;
  /** Every conversation, in no particular order. */
  list(): Promise<StoredConversation[]>;
  /** NOT_FOUND when the conversation does not exist (a deleted one is not brought back). */
  appendTurn(id: string, turn: NewTurn): Promise<void>;
  /** False when there was nothing to delete. */
  remove(id: string): Promise<boolean>;
}

export function conversationsDir(dataDir: string): string {
  return path.join(dataDir, CONVERSATIONS_DIR);
}

function fileOf(dataDir: string, id: string): string {
  // The id names a file: only what the schema allows (no separators, no dots) gets this far.
  if (!conversationIdSchema.safeParse(id).success) throw new ClauseGraphError("VALIDATION", "That is not a conversation id");
  return path.join(conversationsDir(dataDir), `${id}.jsonl`);
}

/** Makes a new file's name durable too (POSIX; Windows cannot fsync a folder and needs no such step). */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readConversation(file: string, id: string): Promise<StoredConversation | null> {
  let createdAt: string | null = null;
  const turns: ConversationTurnLine[] = [];
  let exists = false;
  for await (const line of readJsonLines(file, conversationLineSchema)) {
    exists = true;
    if (line.kind === "created") createdAt ??= line.at;
    else turns.push(line);
  }
  if (!exists) return null;
  // A crash while the "created" line was written leaves turns without it (never in practice: a
  // turn is appended only after creation returned); the first turn then dates the conversation.
  const at = createdAt ?? turns[0]?.at;
  return at === undefined ? null : { id, createdAt: at, turns };
}

export function createConversationStore(dataDir: string): ConversationStore {
  const dir = conversationsDir(dataDir);
  // Appends and deletes of one conversation run one after another, so a delete never races an
  // append into resurrecting the file.
  const queues = new Map<string, Promise<unknown>>();
  const inOrder = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(id) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(id, settled);
    void settled.then(() => {
      if (queues.get(id) === settled) queues.delete(id);
    });
    return next;
  };

  return {
    async create(now = new Date()) {
      const id = randomUUID();
      const line: ConversationLine = { v: 1, kind: "created", id, at: now.toISOString() };
      await appendLine(fileOf(dataDir, id), JSON.stringify(line), true);
      await syncDir(dir);
      return { id, createdAt: line.at, turns: [] };
    },
    async read(id) {
      return readConversation(fileOf(dataDir, id), id);
    },
    async list() {
      const names = await readdir(dir).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return [] as string[];
        throw err;
      });
      const ids = names
        .filter((n) => n.endsWith(".jsonl"))
        .map((n) => n.slice(0, -".jsonl".length))
        .filter((id) => conversationIdSchema.safeParse(id).success);
      const read = await Promise.all(ids.map((id) => readConversation(path.join(dir, `${id}.jsonl`), id)));
      return read.filter((c): c is StoredConversation => c !== null);
    },
    async appendTurn(id, turn) {
      const file = fileOf(dataDir, id);
      return inOrder(id, async () => {
        if ((await readConversation(file, id)) === null) throw new ClauseGraphError("NOT_FOUND", "That conversation no longer exists (it was deleted)");
        const line: ConversationLine = { v: 1, kind: "turn", ...turn };
        await appendLine(file, JSON.stringify(conversationLineSchema.parse(line)));
      });
    },
    async remove(id) {
      const file = fileOf(dataDir, id);
      return inOrder(id, async () => {
        const existed = (await readConversation(file, id)) !== null;
        await rm(file, { force: true });
        if (existed) await syncDir(dir);
        return existed;
      });
    },
  };
}
