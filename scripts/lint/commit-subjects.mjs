// Commit messages readable in `git log --oneline`: a subject of at most 72 characters, then (when
// there is a body) a blank line. Checked for every commit after the one where the rule was adopted;
// earlier history is left as it is. A clone without that commit (shallow, or a fork that rewrote
// history) has its HEAD checked alone, and a tree outside git is not checked.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The last commit written before the rule: its descendants must follow it. */
export const RULE_ADOPTED_AFTER = "18b0a6f";
export const MAX_SUBJECT = 72;

/** Problems with one commit message (subject line first). */
export function messageProblems(message) {
  const lines = message.replace(/\r\n/g, "\n").replace(/\n+$/, "").split("\n");
  const subject = lines[0] ?? "";
  const problems = [];
  if (subject.trim() === "") problems.push("empty subject");
  if ([...subject].length > MAX_SUBJECT) problems.push(`subject is ${[...subject].length} characters (at most ${MAX_SUBJECT})`);
  if (lines.length > 1 && lines[1].trim() !== "") problems.push("no blank line between the subject and the body");
  return problems;
}

function git(root, args) {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
}

/** Every commit the rule covers in the repository at `root`, with its problems. */
export function checkCommitSubjects(root, since = RULE_ADOPTED_AFTER) {
  try {
    git(root, ["rev-parse", "--verify", "HEAD"]);
  } catch {
    return { checked: 0, scope: "not a git work tree with commits", report: [] };
  }
  let range = ["HEAD", "-1"];
  let scope = "HEAD only (the commit the rule starts from is not in this clone)";
  try {
    git(root, ["rev-parse", "--verify", `${since}^{commit}`]);
    range = [`${since}..HEAD`];
    scope = `every commit after ${since}`;
  } catch {
    // Shallow or rewritten history: HEAD alone.
  }
  const log = git(root, ["log", "--format=%h%x00%B%x01", ...range]);
  const report = [];
  let checked = 0;
  for (const entry of log.split("\x01")) {
    const trimmed = entry.replace(/^\n+/, "");
    if (trimmed === "") continue;
    const [hash, message = ""] = trimmed.split("\x00");
    checked++;
    for (const problem of messageProblems(message)) report.push(`${hash}: ${problem}: ${(message.split("\n")[0] ?? "").slice(0, 90)}`);
  }
  return { checked, scope, report };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const result = checkCommitSubjects(root);
  if (result.report.length > 0) {
    console.error(result.report.join("\n"));
    process.exit(1);
  }
  console.log(`commit messages: ${result.checked} checked (${result.scope})`);
}
