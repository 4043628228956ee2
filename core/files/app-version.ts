import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

// The app's version (package.json), recorded with every answer and printed on every export. Read
// at run time by walking up from this module: the same code runs from core/ (tsx), from
// dist/electron/ (esbuild bundle) and from inside the packaged app, each at another depth.

const packageSchema = z.object({ name: z.string(), version: z.string() });
let cached: string | null = null;

export function appVersion(): string {
  if (cached !== null) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    try {
      const parsed = packageSchema.safeParse(JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")));
      if (parsed.success && parsed.data.name === "clausegraph") {
        cached = parsed.data.version;
        return cached;
      }
    } catch {
      // No package.json here (or not ours): look one folder up.
    }
    dir = path.dirname(dir);
  }
  cached = "unknown";
  return cached;
}
