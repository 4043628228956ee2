import path from "node:path";
import { fileURLToPath } from "node:url";

// What the app's session may load: its own renderer files and nothing else — no network (http,
// https, ws), no other file on disk, no data: documents. Kept free of Electron imports so the
// policy itself is unit-tested (test/integration/security-electron.test.ts).

/** True for a URL of a file inside `rendererDir` (and for the devtools' own pages). */
export function isOwnUrl(raw: string, rendererDir: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === "devtools:") return true;
  if (url.protocol !== "file:") return false;
  let file: string;
  try {
    file = fileURLToPath(url);
  } catch {
    return false; // file://host/… (a network share) is not ours
  }
  const relative = path.relative(rendererDir, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}
