import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ClauseGraphError } from "../model/errors.ts";
import { answerLimitsSchema, type AnswerLimits } from "../model/answer-limits.ts";

// `<dataDir>/settings.json`: the choices a user makes in the app that must outlive it, today the
// language model to answer with and the caps on its answers. Written atomically (temporary file,
// fsync, rename) so a crash leaves the old file or the new one, never half of one; read through zod
// because it is a file a person can edit. Keys this version does not know are kept, so an older
// app never erases a newer one's settings.

export const SETTINGS_FILE = "settings.json";

export const llmChoiceSchema = z.object({
  /** null: no model, answers are quoted. */
  modelId: z.string().min(1).max(128).nullable(),
  threads: z.int().min(1).max(256).optional(),
  contextSize: z.int().min(64).max(1_048_576).optional(),
});

export type LlmChoice = z.infer<typeof llmChoiceSchema>;

const settingsSchema = z.looseObject({ llm: llmChoiceSchema.optional(), answerLimits: answerLimitsSchema.optional() });

type Settings = z.infer<typeof settingsSchema>;

export function settingsPath(dataDir: string): string {
  return path.join(dataDir, SETTINGS_FILE);
}

async function readRaw(file: string): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ClauseGraphError("FILE_UNREADABLE", `The settings file cannot be read: ${file}`, { file, cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ClauseGraphError("VALIDATION", `The settings file is not valid JSON: ${file}`, { file, cause: err });
  }
  const parsed = settingsSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new ClauseGraphError("VALIDATION", `The settings file is not valid (${issues}): ${file}`, { file });
  }
  return parsed.data;
}

/** The saved model choice, or null when none was ever made. Throws VALIDATION for a damaged file. */
export async function readLlmChoice(dataDir: string): Promise<LlmChoice | null> {
  return (await readRaw(settingsPath(dataDir))).llm ?? null;
}

/** Saves the model choice, keeping every other setting. A damaged file is replaced. */
export function writeLlmChoice(dataDir: string, choice: LlmChoice): Promise<void> {
  return writeSettings(dataDir, { llm: llmChoiceSchema.parse(choice) });
}

/** The saved caps on written answers, or null when none were ever saved. Throws VALIDATION for a damaged file. */
export async function readAnswerLimits(dataDir: string): Promise<AnswerLimits | null> {
  return (await readRaw(settingsPath(dataDir))).answerLimits ?? null;
}

/** Saves the caps on written answers, keeping every other setting. */
export function writeAnswerLimits(dataDir: string, limits: AnswerLimits): Promise<void> {
  return writeSettings(dataDir, { answerLimits: answerLimitsSchema.parse(limits) });
}

/** One top-level setting another part of the app owns (it validates the value); undefined when absent. */
export async function readSetting(dataDir: string, key: string): Promise<unknown> {
  const settings: Record<string, unknown> = await readRaw(settingsPath(dataDir));
  return settings[key];
}

/** Saves one top-level setting (already validated by its owner), keeping every other. */
export function writeSetting(dataDir: string, key: string, value: unknown): Promise<void> {
  return writeSettings(dataDir, { [key]: value });
}

/** Writes of one settings file in turn: each reads what the one before wrote, so none is lost. */
const pending = new Map<string, Promise<void>>();

function writeSettings(dataDir: string, change: Partial<Settings>): Promise<void> {
  const file = settingsPath(dataDir);
  const next = (pending.get(file) ?? Promise.resolve()).then(() => writeNow(dataDir, file, change));
  const settled = next.catch(() => undefined);
  pending.set(file, settled);
  void settled.then(() => {
    if (pending.get(file) === settled) pending.delete(file);
  });
  return next;
}

async function writeNow(dataDir: string, file: string, change: Partial<Settings>): Promise<void> {
  const current = await readRaw(file).catch(() => ({}));
  const next: Settings = { ...current, ...change };
  await mkdir(dataDir, { recursive: true });
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(next, null, 2)}\n`, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw new ClauseGraphError("INTERNAL", `The settings file could not be written: ${file}`, { file, cause: err });
  }
}
