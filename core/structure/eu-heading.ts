import type { DetectContext, HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import { parseOrdinal, titleCaseWord } from "./heading-types.ts";
import type { FlowLine } from "./flow.ts";

// EU legislation (OJ and Council layouts, EUR-Lex plain text): recitals "(12)", then enacting
// terms CHAPTER/TITLE > SECTION > Article, then ANNEX. Article numbers stand alone on their line
// with the title on the next; a line that merely starts with "Article 6" is a cross-reference.

const RECITAL = /^\((\d{1,3})\)\s+(?=\S)/;
const ARTICLE = /^(?:Article|ARTICLE)\s+(\d{1,3})\s*([a-z]{0,2})$/;
const CONTAINER = /^(CHAPTER|Chapter|TITLE|Title|SECTION|Section|PART|Part)\s+([IVXLC]+|\d{1,2})$/;
const ANNEX = /^ANNEX(?:\s+([IVXLC]+|\d{1,2}))?$/;

export const EU_RANK = { part: 1, title: 2, chapter: 3, section: 4, article: 5, recital: 5, annex: 1 } as const;

function recital(f: FlowLine, ctx: DetectContext): HeadingCandidate | undefined {
  const m = RECITAL.exec(f.text);
  if (m === null) return undefined;
  // Footnotes share the "(1)" shape but are set smaller than the recitals they annotate.
  if (!ctx.stats.plain && f.line.fontSize < ctx.stats.bodySize * 0.92) return undefined;
  const n = Number(m[1]);
  return {
    kind: "recital",
    label: `Recital ${n}`,
    rank: EU_RANK.recital,
    inlineTitle: "",
    titleMode: "run-in",
    runInPrefix: m[0].length,
    group: "eu-recital",
    order: [n],
    sequence: "next",
  };
}

function container(f: FlowLine): HeadingCandidate | undefined {
  const m = CONTAINER.exec(f.text);
  if (m === null) return undefined;
  const word = (m[1] ?? "").toLowerCase() as "chapter" | "title" | "section" | "part";
  const token = m[2] ?? "";
  const n = parseOrdinal(token);
  if (Number.isNaN(n)) return undefined;
  return {
    kind: word,
    label: `${titleCaseWord(word)} ${token}`,
    rank: EU_RANK[word],
    inlineTitle: "",
    titleMode: "next-lines",
    group: `eu-${word}`,
    order: [n],
    sequence: "increasing",
    scope: word === "section" ? "parent" : "document",
    closes: ["eu-recital"],
  };
}

function article(f: FlowLine): HeadingCandidate | undefined {
  const m = ARTICLE.exec(f.text);
  if (m === null) return undefined;
  const n = Number(m[1]);
  const suffix = m[2] ?? "";
  return {
    kind: "article",
    label: `Article ${n}${suffix}`,
    rank: EU_RANK.article,
    inlineTitle: "",
    titleMode: "next-lines",
    group: "eu-article",
    order: [n, suffix.length === 0 ? 0 : suffix.charCodeAt(0) - 96],
    sequence: "increasing",
    closes: ["eu-recital"],
  };
}

function annex(f: FlowLine): HeadingCandidate | undefined {
  const m = ANNEX.exec(f.text);
  if (m === null) return undefined;
  const token = m[1];
  return {
    kind: "annex",
    label: token === undefined ? "Annex" : `Annex ${token}`,
    rank: EU_RANK.annex,
    inlineTitle: "",
    titleMode: "next-lines",
    group: "eu-annex",
    order: [token === undefined ? 0 : parseOrdinal(token)],
    sequence: "increasing",
    closes: ["eu-recital"],
  };
}

export const euDetector: HeadingDetector = {
  family: "eu",
  detect(line, ctx) {
    return article(line) ?? container(line) ?? annex(line) ?? recital(line, ctx);
  },
};
