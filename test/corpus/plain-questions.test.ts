import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isUnread, loadAuditorDev } from "../../bench/lib/auditor-dev.ts";

// Our plain-language questions (plain-questions.jsonl) are held to the auditor set's own checker:
// every gold phrase on its page, and no run of three question words copied from a gold page.
// It needs the shared corpus, python3 and poppler's pdftotext; without them the check is skipped.

const here = path.dirname(fileURLToPath(import.meta.url));
const FILE = path.join(here, "plain-questions.jsonl");
const CHECKER = path.resolve(here, "../../../shared/corpus/qa/auditor/check_set.py");
const has = (command: string): boolean => spawnSync(command, ["-v"], { stdio: "ignore" }).error === undefined;
const runs = existsSync(CHECKER) && has("python3") && has("pdftotext");
if (!runs) console.warn(`skipped: the plain-language set's checker needs ${CHECKER}, python3 and pdftotext`);

describe("our plain-language questions", () => {
  it("parse as the auditor set does, with an unread part of their own", async () => {
    const questions = await loadAuditorDev(FILE);
    expect(questions.length).toBeGreaterThanOrEqual(100);
    const unread = questions.filter((q) => isUnread(q.id)).length;
    expect(unread).toBeGreaterThan(questions.length / 4);
    expect(unread).toBeLessThan(questions.length / 2);
  });

  it.runIf(runs)("pass the auditor set's checker (phrases on their pages, the 3-word rule)", () => {
    const out = execFileSync("python3", [CHECKER, FILE], { encoding: "utf8" });
    expect(out.trim().split("\n").at(-1)).toMatch(/^\d+ ok, 0 bad$/);
  });
});
