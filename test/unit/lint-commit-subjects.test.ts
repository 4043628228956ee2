import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCommitSubjects, messageProblems } from "../../scripts/lint/commit-subjects.mjs";

describe("commit message check", () => {
  it("takes a subject of at most 72 characters, then a blank line before the body", () => {
    expect(messageProblems("Pinpoints from the CFR's level order\n\nWhy, and the figures.\n")).toEqual([]);
    expect(messageProblems("x".repeat(72))).toEqual([]);
    expect(messageProblems("x".repeat(73))).toEqual(["subject is 73 characters (at most 72)"]);
    expect(messageProblems("Subject\nbody glued to it")).toEqual(["no blank line between the subject and the body"]);
    expect(messageProblems("\n\nbody only")).toContain("empty subject");
    // Characters, not UTF-16 units or bytes: "§" and "→" count once.
    expect(messageProblems(`${"§".repeat(36)}${"→".repeat(36)}`)).toEqual([]);
  });

  describe("in a repository", () => {
    let dir = "";
    const git = (...args: string[]): string =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false", ...args], { cwd: dir, encoding: "utf8" });
    const commit = async (message: string): Promise<string> => {
      await writeFile(path.join(dir, "f.txt"), message);
      git("add", "f.txt");
      git("commit", "-q", "-m", message);
      return git("rev-parse", "--short", "HEAD").trim();
    };

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), "cg-commits-"));
      git("init", "-q");
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("checks the commits after the one the rule starts from, and HEAD alone when that one is unknown", async () => {
      const before = await commit(`An old subject written before the rule ${"and long ".repeat(10)}`);
      await commit("A short subject\n\nWith a body.");
      expect(checkCommitSubjects(dir, before)).toMatchObject({ checked: 1, report: [] });
      const bad = await commit(`A subject that goes on ${"and on ".repeat(10)}`);
      const result = checkCommitSubjects(dir, before);
      expect(result.checked).toBe(2);
      expect(result.report).toHaveLength(1);
      expect(result.report[0]).toContain(bad);
      expect(checkCommitSubjects(dir, "0000000")).toMatchObject({ checked: 1, scope: expect.stringContaining("HEAD only") as unknown });
    });

    it("says a tree outside git is not checked", async () => {
      const plain = await mkdtemp(path.join(os.tmpdir(), "cg-nogit-"));
      try {
        expect(checkCommitSubjects(plain)).toMatchObject({ checked: 0, report: [] });
      } finally {
        await rm(plain, { recursive: true, force: true });
      }
    });
  });
});
