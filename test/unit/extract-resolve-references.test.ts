import { describe, expect, it } from "vitest";
import { findCrossReferences } from "../../core/extract/cross-references.ts";
import { resolveReferences } from "../../core/extract/resolve-references.ts";
import type { KnownDocument } from "../../core/extract/resolve-references.ts";

function doc(title: string, aliases: string[], labels: string[], prefix: string): KnownDocument {
  return { title, aliases, labels: new Map(labels.map((l) => [l, `${prefix}:${l.toLowerCase().replace(/\W+/g, "-")}`])) };
}

const gdpr = doc(
  "General Data Protection Regulation",
  ["GDPR", "Regulation (EU) 2016/679"],
  ["Article 6", "Article 28", "Article 33", "Article 34", "Article 55"],
  "gdpr",
);
const hipaa = doc("HIPAA Administrative Simplification", ["45 CFR"], ["§ 164.308", "§ 164.310", "§ 164.312", "§ 164.314", "§ 164.316", "Part 160"], "hipaa");
const codice = doc("Codice dei contratti pubblici", ["Codice", "d.lgs. 36/2023"], ["Art. 94", "Art. 95", "Art. 120"], "codice");
const documents = new Map([
  ["gdpr", gdpr],
  ["hipaa", hipaa],
  ["codice", codice],
  ["disc", doc("Disciplinare di gara", [], ["Art. 16", "Art. 17"], "disc")],
]);

describe("resolveReferences", () => {
  it("resolves pinpoints to the containing article and keeps the pinpoint", () => {
    const text = "where processing is based on point (a) of Article 6(1), and pursuant to paragraph 3 of Article 28";
    const edges = resolveReferences({
      references: findCrossReferences(text, { documentKind: "eu" }),
      fromSectionId: "gdpr:article-33",
      fromDocumentId: "gdpr",
      currentLabel: "Article 33",
      currentPath: ["Chapter IV", "Section 2", "Article 33"],
      documents,
    });
    expect(edges.map((e) => [e.toSectionId, e.pinpoint, e.resolved])).toEqual([
      ["gdpr:article-6", "(1)(a)", true],
      ["gdpr:article-28", "(3)", true],
    ]);
    expect(edges[0]?.span).toEqual({ start: text.indexOf("point (a)"), end: text.indexOf(", and") });
  });

  it("resolves relative references against the current section", () => {
    const edges = resolveReferences({
      references: findCrossReferences("The notification referred to in paragraph 1 shall at least:", { documentKind: "eu" }),
      fromSectionId: "gdpr:article-33",
      fromDocumentId: "gdpr",
      currentLabel: "Article 33",
      currentPath: ["Article 33"],
      documents,
    });
    expect(edges).toEqual([expect.objectContaining({ toSectionId: "gdpr:article-33", toDocumentId: "gdpr", pinpoint: "paragraph 1", resolved: true })]);
  });

  it("drops non-existent range interiors but keeps unresolvable endpoints", () => {
    const edges = resolveReferences({
      references: findCrossReferences("§§ 164.308 through 164.316 and § 164.999", { documentKind: "cfr" }),
      fromSectionId: "hipaa:x",
      fromDocumentId: "hipaa",
      currentLabel: "§ 164.302",
      currentPath: [],
      documents,
    });
    expect(edges.filter((e) => e.resolved).map((e) => e.label)).toEqual(["§ 164.308", "§ 164.310", "§ 164.312", "§ 164.314", "§ 164.316"]);
    expect(edges.filter((e) => !e.resolved).map((e) => e.label)).toEqual(["§ 164.999"]);
  });

  it("follows aliases into other documents, across spellings", () => {
    const text = "abbia i requisiti di cui agli artt. 94 e 95 del Codice e dell’art 120 comma 9 del D.lgs. 36/2023; cfr. art. 17 del presente Disciplinare";
    const edges = resolveReferences({
      references: findCrossReferences(text, { language: "it" }),
      fromSectionId: "disc:art-3",
      fromDocumentId: "disc",
      currentLabel: "Art. 3",
      currentPath: [],
      documents,
    });
    expect(edges.map((e) => [e.toDocumentId, e.toSectionId, e.pinpoint ?? null])).toEqual([
      ["codice", "codice:art-94", null],
      ["codice", "codice:art-95", null],
      ["codice", "codice:art-120", "comma 9"],
      ["disc", "disc:art-17", null],
    ]);
  });

  it("keeps references to unknown acts unresolved, and whole-act citations resolved to the document", () => {
    const text = "as defined in Article 6, point 1, of Directive (EU) 2022/2555 and Regulation (EU) 2016/679";
    const edges = resolveReferences({
      references: findCrossReferences(text, { documentKind: "eu" }),
      fromSectionId: "dora:article-3",
      fromDocumentId: "dora",
      currentLabel: "Article 3",
      currentPath: [],
      documents,
    });
    expect(edges[0]).toMatchObject({ label: "Article 6", instrument: "Directive (EU) 2022/2555", resolved: false, toSectionId: null });
    expect(edges[0]?.toDocumentId).toBeUndefined();
    expect(edges[1]).toMatchObject({ label: null, toDocumentId: "gdpr", toSectionId: null, resolved: true });
  });

  it("uses the printed parent when a label repeats", () => {
    const withPaths: KnownDocument = { ...gdpr, labels: new Map([["Section 2", "gdpr:ch2-s2"]]), paths: new Map([["Chapter IV > Section 2", "gdpr:ch4-s2"]]) };
    const edges = resolveReferences({
      references: findCrossReferences("Section 2 of Chapter IV", { documentKind: "eu" }),
      fromSectionId: "gdpr:a",
      fromDocumentId: "gdpr",
      currentLabel: "Article 1",
      currentPath: [],
      documents: new Map([["gdpr", withPaths]]),
    });
    expect(edges[0]?.toSectionId).toBe("gdpr:ch4-s2");
  });
});
