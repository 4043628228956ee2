import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";

// "no telemetry, no update checks, no remote fonts": the shipped code names no remote
// address at all. The renderer (HTML, CSS, scripts, public assets) and electron/ contain no http(s)
// URL, so no font, stylesheet, script or beacon can be fetched; the engine names only loopback
// addresses (the web host) and strings it compares against, never fetches; and no updater,
// crash reporter or analytics package is a dependency or called.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_EXT = /\.(ts|tsx|mts|mjs|js|css|html|svg|json)$/;

/** Engine strings that look like URLs but are never fetched, each with why. */
const ENGINE_URL_EXCEPTIONS: { file: string; url: string; reason: string }[] = [
  { file: "core/llm/gguf-header.ts", url: "https://git-lfs", reason: "recognizes a Git LFS pointer file's first line" },
];

const LOOPBACK = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost|\[::1\])([:/]|$)/;

const UPDATE_OR_TELEMETRY =
  /\b(autoUpdater|electron-updater|update-electron-app|crashReporter|@sentry\/|posthog|mixpanel|amplitude|analytics-node|@segment\/|gtag\(|google-analytics|applicationinsights|bugsnag|datadog)/;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && SOURCE_EXT.test(entry.name)) out.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)));
  }
  return out;
}

async function urlsIn(file: string): Promise<string[]> {
  const text = await readFile(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/\b(?:https?|wss?):\/\/[^\s"'`)<>]*/gi)].map((m) => m[0]);
}

/** SVG and XHTML name their XML namespace with a URL that is an identifier, not a request. */
function isXmlNamespace(url: string): boolean {
  return /^http:\/\/www\.w3\.org\/(2000\/svg|1999\/xhtml|1999\/xlink)$/.test(url);
}

describe("no remote resources, telemetry or update checks", () => {
  it("the renderer and electron/ name no non-loopback URL (no remote fonts, styles, scripts or beacons)", async () => {
    const files = [...(await filesUnder("renderer")), ...(await filesUnder("electron"))];
    expect(files.some((f) => f.endsWith(".css"))).toBe(true);
    expect(files).toContain(path.join("renderer", "index.html"));
    const found: string[] = [];
    // Loopback only appears in the CSP of the browser build, which talks to its own web host.
    for (const file of files) for (const url of await urlsIn(file)) if (!isXmlNamespace(url) && !LOOPBACK.test(url)) found.push(`${file}: ${url}`);
    expect(found).toEqual([]);
  });

  it("the engine names only loopback addresses, apart from listed strings it never fetches", async () => {
    const found: string[] = [];
    for (const file of await filesUnder("core")) {
      for (const url of await urlsIn(file)) {
        if (LOOPBACK.test(url)) continue;
        if (ENGINE_URL_EXCEPTIONS.some((e) => e.file === file && url.startsWith(e.url))) continue;
        found.push(`${file}: ${url}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("no updater, crash reporter or analytics package is a dependency or called", async () => {
    const pkg = z
      .object({ dependencies: z.record(z.string(), z.string()), devDependencies: z.record(z.string(), z.string()) })
      .parse(JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")));
    for (const name of Object.keys(pkg.dependencies)) expect(name, name).not.toMatch(UPDATE_OR_TELEMETRY);
    const calls: string[] = [];
    for (const file of [...(await filesUnder("core")), ...(await filesUnder("electron")), ...(await filesUnder("renderer"))]) {
      const text = await readFile(path.join(ROOT, file), "utf8");
      const hit = UPDATE_OR_TELEMETRY.exec(text);
      if (hit) calls.push(`${file}: ${hit[0]}`);
    }
    expect(calls).toEqual([]);
    // The installer publishes nowhere and so checks nowhere for updates.
    const builder = await readFile(path.join(ROOT, "electron-builder.yml"), "utf8");
    expect(builder).not.toMatch(/^\s*publish\s*:\s*(?!\s*(never|null)\s*$)/m);
  });
});
