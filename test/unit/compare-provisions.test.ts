import { describe, expect, it } from "vitest";
import { provisionsToAlign } from "../../core/compare/crosswalk-inputs.ts";
import { sectionRole, type SectionProfile } from "../../core/compare/section-profile.ts";
import type { SectionKind } from "../../core/model/section-types.ts";

// A crosswalk aligns the provisions that bind, on both sides, unless asked for everything: an EU
// regulation's recitals and a NIST publication's introduction and glossary explain; a document
// with no operative provision at all (an unstructured text) keeps what it has.

const profile = (label: string, kind: SectionKind) => ({ section: { label, kind }, role: sectionRole(kind) }) as unknown as SectionProfile;
const labels = (profiles: readonly SectionProfile[]) => profiles.map((p) => p.section.label);

describe("provisions to align", () => {
  const regulation = [profile("Preamble", "preamble"), profile("Recital 12", "recital"), profile("Article 9", "article"), profile("Annex I", "annex")];
  const publication = [profile("Chapter 1 INTRODUCTION", "chapter"), profile("3.1.1", "requirement"), profile("Appendix B GLOSSARY", "appendix")];
  const cfr = [profile("Part 164", "part"), profile("§ 164.308", "section")];
  const text = [profile("p. 1 ¶1", "chunk"), profile("p. 1 ¶2", "chunk")];

  it("keeps the operative provisions of an EU regulation, a NIST publication and a CFR part", () => {
    expect(labels(provisionsToAlign(regulation, "operative"))).toEqual(["Article 9"]);
    expect(labels(provisionsToAlign(publication, "operative"))).toEqual(["3.1.1"]);
    expect(labels(provisionsToAlign(cfr, "operative"))).toEqual(["§ 164.308"]);
  });

  it("keeps everything when asked, or when a document has no operative provision", () => {
    expect(labels(provisionsToAlign(regulation, "all"))).toEqual(labels(regulation));
    expect(labels(provisionsToAlign(text, "operative"))).toEqual(labels(text));
  });
});
