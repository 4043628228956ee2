import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";

// The shared corpus lives beside the checkout on our machines and in CI, never on a user's clone:
// corpus tests run when it is there and say clearly when they are skipped.
const here = path.dirname(fileURLToPath(import.meta.url));
export const SHARED_DIR = path.resolve(here, "../../../shared");
export const CORPUS_DIR = path.join(SHARED_DIR, "corpus");
export const HAS_CORPUS = existsSync(path.join(CORPUS_DIR, "manifest.json"));

export function corpusPath(relative: string): string {
  return path.join(CORPUS_DIR, relative);
}

export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
  kind?: string;
  expected?: string;
  password?: string | null;
  pages?: number | null;
  encrypted?: string | null;
  text_layer?: boolean;
  lang?: string;
}

export function readManifest(): ManifestEntry[] {
  const raw: unknown = JSON.parse(readFileSync(path.join(CORPUS_DIR, "manifest.json"), "utf8"));
  if (typeof raw !== "object" || raw === null || !("files" in raw) || !Array.isArray(raw.files)) {
    throw new Error("corpus manifest.json has no files array");
  }
  return raw.files as ManifestEntry[];
}

let warned = false;
/** describe() that runs only where ../shared/corpus exists, printing why it skipped otherwise. */
export function describeCorpus(name: string, fn: () => void): void {
  if (!HAS_CORPUS && !warned) {
    warned = true;
    console.warn(`[corpus] ${CORPUS_DIR} not found: corpus tests are SKIPPED on this machine.`);
  }
  (HAS_CORPUS ? describe : describe.skip)(`[corpus] ${name}`, fn);
}
