import { describe, expect, it } from "vitest";
import { provisionRole } from "../../core/answer/provision-role.ts";
import type { Section } from "../../core/model/section-types.ts";

// What part a section plays (provision-role.ts): a Federal Register preamble's captions are the
// sections' labels, their headings empty, and explain what the rule's paragraphs require.

const role = (kind: Section["kind"], label: string, heading: string): string => provisionRole({ kind, label, heading });

describe("provisionRole", () => {
  it("a proposed rule's Summary and Supplementary information explain; its § 39.13 obliges", () => {
    expect(role("heading", "Summary", "")).toBe("explanatory");
    expect(role("heading", "Supplementary information (part 3)", "")).toBe("explanatory");
    expect(role("section", "§ 39.13", "[Amended]")).toBe("operative");
    // The comment deadline is a preamble caption of its own, not an explanation.
    expect(role("heading", "Dates", "")).toBe("operative");
  });

  it("only whole captions: a rulebook chapter's introduction guidance and a summary table stay as they were", () => {
    expect(role("rule", "8.Introduction.Guidance.1.", "")).toBe("operative");
    expect(role("appendix", "Appendix L", "SUMMARY OF TASKS")).toBe("annex");
    expect(role("section", "Section 2.1", "Background")).toBe("explanatory");
    expect(role("article", "Article 3", "Definitions")).toBe("definitions");
  });
});
