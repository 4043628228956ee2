import { describe, expect, it } from "vitest";
import { HOSTILE_PARSE_CASES, MAX_ENGINE_RSS, MAX_SECONDS, runHostileParse, WATCHDOG_CASES } from "../../bench/lib/hostile-parse.ts";

// Every hostile file (q nested a million deep, Flate bombs in a content stream and
// in XMP metadata, a Tj flood, 5M text items, 4,999 pages sharing a stream, /dev/zero, a .txt link
// to it, a FIFO, a 20 GB sparse .txt), generated here and small on disk, ends in its typed error
// within 60 s with the engine under 2 GB, the library unchanged, the next import working and the
// web host answering GET / and search throughout. The watchdog cases lift the pre-scan's caps so
// only the parsing child's time, memory and heap limits can stop the file.

describe("untrusted bytes are parsed under limits", () => {
  it("the issue's files get their typed error, and nothing else suffers", { timeout: 10 * 60_000 }, async () => {
    const outcomes = await runHostileParse({ cases: HOSTILE_PARSE_CASES, log: (line) => console.log(line) });
    expect(outcomes).toHaveLength(HOSTILE_PARSE_CASES.length);
    for (const o of outcomes) {
      expect(o.failure, o.name).toBeNull();
      expect(o.outcome, o.name).toBe(o.expected);
      expect(o.seconds, o.name).toBeLessThan(MAX_SECONDS);
      expect(o.enginePeakMb * 1024 * 1024, o.name).toBeLessThanOrEqual(MAX_ENGINE_RSS);
    }
    // Each names the file, and the parse errors the limit (and the page when the pre-scan knows it).
    expect(outcomes[0]?.message).toMatch(
      /^nested-q\.pdf is too complex to read safely: graphics states \(q\) nested more than 256 deep on page 1; the limit is 256/,
    );
    expect(outcomes.find((o) => o.name.startsWith("4,999"))?.message).toMatch(/more than 50,000,000 operators together .*the limit is 50,000,000 per file/);
  });

  it("what the pre-scan lets through is stopped by the child's watchdogs", { timeout: 10 * 60_000 }, async () => {
    const outcomes = await runHostileParse({ cases: WATCHDOG_CASES, log: (line) => console.log(line) });
    for (const o of outcomes) expect(o.failure, o.name).toBeNull();
    const messages = outcomes.map((o) => o.message);
    expect(messages).toEqual([
      expect.stringMatching(/reading took more than 5 s on page 1; the limit is 5 s per page/),
      expect.stringMatching(/nested-q-hex\.pdf .*reading took more than 5 s on page 1; the limit is 5 s per page/),
      expect.stringMatching(/reading took \d[\d,]* MB of memory .*the limit is 600 MB/),
      expect.stringMatching(/reading took \d[\d,]* MB of memory .*the limit is 600 MB/),
      expect.stringMatching(/reading needed more than its 128 MB heap on page 1; the limit is 128 MB/),
      expect.stringMatching(/reading took more than 10 s in all on page \d+; the limit for 4,999 pages is 10 s/),
    ]);
  });
});
