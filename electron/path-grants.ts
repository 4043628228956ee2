import path from "node:path";
import { z } from "zod";
import { LIMITS } from "../core/contract/contract.ts";

// Which files the desktop app's engine may import by path: only those its user dropped on the
// window or picked in it. The preload resolves a dropped or picked File to its path
// (webUtils.getPathForFile, which gives "" for a File a script made up) and tells main, which
// forwards the grant to the engine process before the import request that names it. A renderer
// taken over by a hostile document can therefore not import (and read back through
// documents.source) a file the user never chose. No Electron import: unit-tested under Node.

/** At most this many paths are remembered (one per dropped file), so a flood cannot grow memory without bound. */
export const MAX_GRANTS = 10_000;

export const grantMessageSchema = z.strictObject({
  control: z.literal("grant"),
  paths: z.array(z.string().min(1).max(LIMITS.path)).max(LIMITS.filesPerImport),
});
export type GrantMessage = z.output<typeof grantMessageSchema>;

export interface PathGrants {
  grant(paths: readonly string[]): void;
  allows(file: string): boolean;
  list(): string[];
}

export function createPathGrants(): PathGrants {
  const granted = new Set<string>();
  return {
    grant(paths) {
      for (const file of paths) {
        if (!path.isAbsolute(file)) continue;
        if (granted.size >= MAX_GRANTS) {
          // The oldest grant goes first: the files in use are the ones just dropped.
          const oldest = granted.values().next();
          if (!oldest.done) granted.delete(oldest.value);
        }
        granted.add(path.resolve(file));
      }
    },
    allows(file) {
      return path.isAbsolute(file) && granted.has(path.resolve(file));
    },
    list() {
      return [...granted];
    },
  };
}
