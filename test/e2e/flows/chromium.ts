import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { BrowserContext } from "playwright-core";

// Debian's Chromium, headless and quiet: no sandbox (containers), no background traffic, no
// first-run UI, a fresh profile per run. The e2e tests never download a browser.

export const CHROMIUM = "/usr/bin/chromium";
export const HAS_CHROMIUM = existsSync(CHROMIUM);

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function launchChromium(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1500, height: 950 },
    colorScheme: "light",
  });
}
