import { describe, expect, it } from "vitest";
import { provisionRole, rolePrior } from "../../core/answer/compose/provision-role.ts";
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

  it("an article amending or repealing another act quotes that act: DORA, the GDPR, an Italian decree", () => {
    expect(role("article", "Article 61", "Amendments to Regulation (EU) No 909/2014")).toBe("amending");
    expect(role("article", "Article 63", "Amendment to Regulation (EU) 2016/1011")).toBe("amending");
    expect(role("article", "Article 94", "Repeal of Directive 95/46/EC")).toBe("amending");
    expect(role("article", "Art. 12", "Modifiche al decreto legislativo 18 aprile 2016, n. 50")).toBe("amending");
    // A provision on amending something else keeps its role.
    expect(role("section", "§ 164.526", "Amendment of protected health information")).toBe("operative");
    expect(role("section", "Par. 27", "Modifica del contratto durante il periodo di efficacia")).toBe("operative");
    expect(rolePrior("amending", "deadline")).toBeLessThan(rolePrior("operative", "deadline"));
  });
});
