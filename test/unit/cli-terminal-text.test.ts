import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalSafe } from "../../core/cli/terminal-text.ts";
import { runCli } from "../helpers/cli.ts";

// A file name is text the user did not type into the terminal: printed raw, "ESC ] 0;… BEL" sets
// the window title and "ESC [2K CR" erases the line. The CLI shows such characters as escapes.

const HOSTILE = "\u001b]0;pwned\u0007\u001b[2K\rrules\u009b31m.txt";
const TEXT = "Article 1\nScope\nThis regulation applies to the retention of audit evidence by auditors.\n";
/** Any terminal control: C0 other than newline and tab, DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "cg-terminal-"));
  await writeFile(path.join(tmp, HOSTILE), TEXT);
});

afterAll(async () => {
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

describe("terminal-safe CLI output", () => {
  it("writes control characters as visible escapes, keeps newlines, tabs and any other text", () => {
    expect(terminalSafe("a\u001b[2Kb\rc\u0007\u009b\u007f")).toBe("a\\u001b[2Kb\\u000dc\\u0007\\u009b\\u007f");
    expect(terminalSafe("Art. 33\n\tGDPR — “72 hours” ✓")).toBe("Art. 33\n\tGDPR — “72 hours” ✓");
    // Inside JSON the escape is the character itself again.
    const json = JSON.stringify({ name: "x\u009by" });
    expect(JSON.parse(terminalSafe(json))).toEqual({ name: "x\u009by" });
  });

  it("ingest, list and search print a hostile file name without sending its controls", async () => {
    const db = path.join(tmp, "library");
    const runs = [
      await runCli(["ingest", path.join(tmp, HOSTILE), "--db", db]),
      await runCli(["list", "--db", db]),
      await runCli(["search", "retention of audit evidence", "--db", db]),
      await runCli(["list", "--db", db, "--json"]),
    ];
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(CONTROL.test(run.stdout), run.stdout).toBe(false);
      expect(CONTROL.test(run.stderr), run.stderr).toBe(false);
    }
    expect(runs[1]?.stdout).toContain("\\u001b]0;pwned");
    // The JSON still names the file exactly.
    const listed = JSON.parse(runs[3]?.stdout ?? "") as { documents: Array<{ fileName: string }> };
    expect(listed.documents.map((d) => d.fileName)).toContain(HOSTILE);
  });
});
