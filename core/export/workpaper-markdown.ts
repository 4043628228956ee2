import { MODE_TEXT, type Workpaper, type WorkpaperAnswer, type WorkpaperCitation, type WorkpaperTable, utcTime } from "./workpaper-model.ts";

// The workpaper as Markdown: readable as plain text, pasteable into an audit file. Text from
// questions and documents is escaped so it cannot become markup (a heading, a link, raw HTML).

/**
 * Plain text inside Markdown: lines joined, emphasis, code, HTML, table and heading characters
 * escaped, and links broken (a backslash before the "(" of "](…)"); citation keys stay readable as "[S1]".
 */
function text(value: string): string {
  return value
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_<>|]/g, (c) => `\\${c}`)
    .replace(/\]\(/g, "]\\(")
    .replace(/^#/, "\\#");
}

/** Inside a code span: ids, hashes, file names (a backtick inside would end it). */
function code(value: string): string {
  return `\`${value.replace(/`/g, "'")}\``;
}

function pagesLine(c: WorkpaperCitation): string {
  const pdf = c.pages.includes("–") ? `PDF pages ${c.pages}` : `PDF page ${c.pages}`;
  return c.printedPages === null ? pdf : `printed ${c.printedPages.includes("–") ? "pages" : "page"} ${text(c.printedPages)} (${pdf})`;
}

function citation(c: WorkpaperCitation): string[] {
  const lines = [
    `**[${c.key}] ${text(c.provision)}**`,
    "",
    `- Document: ${code(c.document)}${c.title === null ? "" : ` — ${text(c.title)}`}`,
    `- Document sha256: ${c.sha256 === null ? "not recorded" : code(c.sha256)}`,
    `- Paragraph: ${text(c.provision)}`,
    `- Page: ${pagesLine(c)}`,
  ];
  if (c.quotes.length > 0) {
    lines.push("- Quoted:", "");
    for (const q of c.quotes) lines.push(`  > ${text(q)}`, "");
  } else {
    lines.push("");
  }
  return lines;
}

/** A graph answer's rows as a Markdown table, each row with its citation key. */
function table(t: WorkpaperTable): string[] {
  const row = (cells: readonly string[]): string => `| ${cells.map((c) => text(c) || " ").join(" | ")} |`;
  return [
    row([...t.columns, "Source"]),
    `|${[...t.columns, "Source"].map(() => " --- |").join("")}`,
    ...t.rows.map((r) => row([...r.cells, `[${r.key}]`])),
    "",
  ];
}

function answer(a: WorkpaperAnswer, n: number): string[] {
  const lines = [
    `## ${n}. ${text(a.question)}`,
    "",
    `- Asked: ${utcTime(a.askedAt)}`,
    ...(a.askedAs === null ? [] : [`- Retrieved as a follow-up: ${text(a.askedAs)}`]),
    `- Mode: ${MODE_TEXT[a.mode]}`,
    `- Model: ${a.model === null ? "none" : `${a.modelName === null ? "" : `${text(a.modelName)} `}${code(a.model.id)}, sha256 ${a.model.sha256 === null ? "not recorded" : code(a.model.sha256)}`}`,
    `- Answered by: ClauseGraph ${a.appVersion === null ? "(version not recorded)" : text(a.appVersion)}`,
    `- Answer log record: ${code(a.logId)}`,
    "",
    "### Answer",
    "",
    text(a.answer),
    "",
    ...(a.table === null ? [] : table(a.table)),
  ];
  for (const note of a.notes) lines.push(`*${a.refused ? "Why not answered" : "Note"}: ${text(note)}*`, "");
  if (a.unsupportedSentences > 0) lines.push(`*${a.unsupportedSentences} sentence(s) not supported by the cited text, marked [unverified].*`, "");
  if (a.citations.length > 0) {
    lines.push("### Citations", "");
    for (const c of a.citations) lines.push(...citation(c));
  }
  return lines;
}

/** "- Asked: <first>" or "- Asked: <first> to <last>" (none for an empty conversation). */
function askedLine(paper: Workpaper): string[] {
  const first = paper.answers[0]?.askedAt;
  const last = paper.answers.at(-1)?.askedAt;
  if (first === undefined) return [];
  return [`- Asked: ${utcTime(first)}${last === undefined || utcTime(last) === utcTime(first) ? "" : ` to ${utcTime(last)}`}`];
}

export function workpaperMarkdown(paper: Workpaper): string {
  const lines = [
    `# Audit workpaper: ${text(paper.title)}`,
    "",
    `- ${paper.kind === "conversation" ? "Conversation" : "Answer"}: ${code(paper.id)}`,
    `- Answers: ${paper.answers.length}`,
    ...askedLine(paper),
    `- Exported with: ClauseGraph ${text(paper.exportedWith)}, from the library's answer log`,
    "",
    ...paper.gaps.map((g) => `> ${text(g)}\n`),
  ];
  paper.answers.forEach((a, i) => lines.push(...answer(a, i + 1)));
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
