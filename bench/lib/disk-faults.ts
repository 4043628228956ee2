import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

// the faults a laptop's disk can throw at the library: it fills up, or it is
// write-protected. Running as root (as here) file permissions stop nothing, so real file systems
// are used instead: each scenario runs in a child inside a private user + mount namespace
// (`unshare -rm`), which may mount a 64 MB tmpfs to fill or remount a folder read-only, and which
// vanishes with the child. Where unprivileged namespaces are unavailable the scenarios are skipped
// with the reason.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const RUN_TS = path.join(ROOT, "bin/run-ts.mjs");
const CHILD = path.join(ROOT, "bench/lib/disk-fault-child.ts");
const CHILD_TIMEOUT_MS = 5 * 60_000;

export const DISK_FAULT_SCENARIOS = ["disk-full", "read-only"] as const;
export type DiskFaultScenario = (typeof DISK_FAULT_SCENARIOS)[number];

const reportSchema = z.object({
  scenario: z.string(),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
  error: z.string().optional(),
});
export type DiskFaultResult = z.infer<typeof reportSchema>;

/** Why this machine cannot mount in a private namespace, or null when it can. */
export function mountNamespaceUnavailableReason(): string | null {
  if (process.platform !== "linux") return `mount namespaces are Linux only (this is ${process.platform})`;
  const probe = spawnSync("unshare", ["-rm", "sh", "-c", 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && umount "$d" && rmdir "$d"'], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (probe.error) return `unshare could not run: ${probe.error.message}`;
  if (probe.status !== 0)
    return `unshare -rm could not mount a tmpfs (unprivileged user namespaces disabled?): ${probe.stderr.trim() || `exit ${probe.status}`}`;
  return null;
}

export async function runDiskFault(scenario: DiskFaultScenario): Promise<DiskFaultResult> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), `cg-disk-${scenario}-`));
  try {
    const out = path.join(tmp, "report.json");
    const child = spawnSync("unshare", ["-rm", process.execPath, RUN_TS, CHILD, "--root", path.join(tmp, "work"), "--scenario", scenario, "--out", out], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 16 * 2 ** 20,
    });
    if (!existsSync(out)) {
      return {
        scenario,
        checks: [],
        error: `the scenario wrote no report (exit ${child.status ?? child.signal}): ${(child.stderr || child.error?.message || "").slice(-2000)}`,
      };
    }
    return reportSchema.parse(JSON.parse(await readFile(out, "utf8")));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
