import { describe, expect, it } from "vitest";
import { createDispatcher } from "../../core/contract/dispatch.ts";
import { createPathGrants, grantMessageSchema, MAX_GRANTS } from "../../electron/path-grants.ts";
import { createFakeEngine } from "../helpers/contract-fake-engine.ts";

// The desktop engine imports by path only the files its user dropped or picked (the
// preload grants each one through main before the renderer can ask for it).

describe("Electron path grants", () => {
  it("lets the engine import granted paths only; anything else is FORBIDDEN and never reaches the engine", async () => {
    const grants = createPathGrants();
    const engine = createFakeEngine();
    const dispatcher = createDispatcher({ engine, emit: () => {}, allowPathImport: (file) => grants.allows(file) });

    expect(await dispatcher.dispatch("documents.import", { files: ["/home/me/gdpr.pdf"] })).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    grants.grant(["/home/me/gdpr.pdf"]);
    expect(await dispatcher.dispatch("documents.import", { files: ["/home/me/gdpr.pdf"] })).toMatchObject({ ok: true });
    // The same file spelled differently is the same grant; a neighbour or a climb out is not.
    expect(grants.allows("/home/me/./gdpr.pdf")).toBe(true);
    expect(grants.allows("/home/me/other.pdf")).toBe(false);
    expect(grants.allows("/home/me/gdpr.pdf/../../../etc/shadow")).toBe(false);
    expect(await dispatcher.dispatch("documents.import", { files: ["/home/me/gdpr.pdf", "/etc/shadow"] })).toMatchObject({
      ok: false,
      error: { code: "FORBIDDEN", file: "/etc/shadow" },
    });
    expect(engine.calls.filter((c) => c.method === "importFiles").map((c) => c.args[0])).toEqual([["/home/me/gdpr.pdf"]]);
  });

  it("ignores relative paths, validates grant messages and stays bounded", () => {
    const grants = createPathGrants();
    grants.grant(["gdpr.pdf"]);
    expect(grants.allows("gdpr.pdf")).toBe(false);
    expect(grantMessageSchema.safeParse({ control: "grant", paths: ["/a.pdf"] }).success).toBe(true);
    expect(grantMessageSchema.safeParse({ control: "grant", paths: [""] }).success).toBe(false);
    expect(grantMessageSchema.safeParse({ control: "grant", paths: ["/a.pdf"], extra: 1 }).success).toBe(false);
    grants.grant(Array.from({ length: MAX_GRANTS + 5 }, (_, i) => `/f/${i}.pdf`));
    expect(grants.list()).toHaveLength(MAX_GRANTS);
    expect(grants.allows("/f/0.pdf")).toBe(false);
    expect(grants.allows(`/f/${MAX_GRANTS + 4}.pdf`)).toBe(true);
  });
});
