import type { DocumentKind } from "../extract/cross-references.ts";
import type { Section } from "../model/section-types.ts";

// Which citation style to expect in a document's text follows from the structure it prints.
export function documentKind(sections: readonly Section[], language: string): DocumentKind {
  if (language === "it" || sections.some((s) => s.label.startsWith("Art. ") || s.label.startsWith("Par. "))) return "italian";
  if (sections.some((s) => s.label.startsWith("§ "))) return "cfr";
  if (sections.some((s) => s.kind === "requirement")) return "nist";
  if (sections.some((s) => s.kind === "article")) return "eu";
  if (sections.some((s) => s.kind === "rule")) return "rules";
  return "generic";
}
