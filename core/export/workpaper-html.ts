import { MODE_TEXT, type Workpaper, type WorkpaperAnswer, type WorkpaperCitation, type WorkpaperTable, utcTime } from "./workpaper-model.ts";

// The workpaper as one self-contained HTML page made for printing: the browser's print dialog
// ("Save as PDF") is the PDF path, so no PDF library is needed. No script, no remote resource;
// every piece of text is escaped. Page breaks never split a citation.

function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

const STYLE = `
:root { color-scheme: light; }
body { font: 11pt/1.45 Georgia, "Times New Roman", serif; color: #111; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 17pt; margin: 0 0 .4rem; }
h2 { font-size: 13pt; margin: 1.6rem 0 .4rem; border-top: 1px solid #999; padding-top: .8rem; }
h3 { font-size: 11pt; margin: 1rem 0 .3rem; text-transform: uppercase; letter-spacing: .04em; color: #444; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .8rem; margin: .4rem 0; font-size: 9.5pt; }
dl.meta dt { color: #555; } dl.meta dd { margin: 0; }
code { font: 9pt/1.3 "DejaVu Sans Mono", Menlo, Consolas, monospace; word-break: break-all; }
.answer { margin: .3rem 0 .6rem; }
table.rows { border-collapse: collapse; width: 100%; font-size: 9.5pt; margin: .3rem 0 .8rem; }
table.rows th, table.rows td { border: 1px solid #bbb; padding: .15rem .35rem; text-align: left; vertical-align: top; }
table.rows tr { break-inside: avoid; page-break-inside: avoid; }
.note { font-style: italic; color: #444; }
.citation { border-left: 3px solid #777; padding: .2rem 0 .2rem .8rem; margin: .7rem 0; break-inside: avoid; page-break-inside: avoid; }
.citation h4 { margin: 0 0 .2rem; font-size: 10.5pt; }
blockquote { margin: .3rem 0 .3rem .4rem; padding-left: .6rem; border-left: 2px solid #bbb; font-style: italic; }
.print-hint { background: #eef3f8; border: 1px solid #c9d6e3; padding: .5rem .8rem; font: 10pt/1.4 system-ui, sans-serif; }
@media print {
  .print-hint { display: none; }
  body { margin: 0; max-width: none; }
  h2 { break-after: avoid; page-break-after: avoid; }
  @page { margin: 18mm 16mm; }
}`;

function meta(rows: Array<[string, string]>): string {
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function citation(c: WorkpaperCitation): string {
  const pdf = `PDF ${c.pages.includes("–") ? "pages" : "page"} ${esc(c.pages)}`;
  const page = c.printedPages === null ? pdf : `printed ${c.printedPages.includes("–") ? "pages" : "page"} ${esc(c.printedPages)} (${pdf})`;
  return `<section class="citation"><h4>[${esc(c.key)}] ${esc(c.provision)}</h4>${meta([
    ["Document", `<code>${esc(c.document)}</code>${c.title === null ? "" : ` — ${esc(c.title)}`}`],
    ["Document sha256", c.sha256 === null ? "not recorded" : `<code>${esc(c.sha256)}</code>`],
    ["Paragraph", esc(c.provision)],
    ["Page", page],
  ])}${c.quotes.map((q) => `<blockquote>${esc(q)}</blockquote>`).join("")}</section>`;
}

/** A graph answer's rows as the table it showed, each row with its citation key. */
function table(t: WorkpaperTable): string {
  const head = [...t.columns, "Source"].map((c) => `<th>${esc(c)}</th>`).join("");
  const body = t.rows.map((r) => `<tr>${[...r.cells, `[${r.key}]`].map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("");
  return `<table class="rows"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function answer(a: WorkpaperAnswer, n: number): string {
  const parts = [
    `<h2>${n}. ${esc(a.question)}</h2>`,
    meta([
      ["Asked", esc(utcTime(a.askedAt))],
      ...(a.askedAs === null ? [] : [["Retrieved as a follow-up", esc(a.askedAs)] as [string, string]]),
      ["Mode", esc(MODE_TEXT[a.mode])],
      [
        "Model",
        a.model === null
          ? "none"
          : `${a.modelName === null ? "" : `${esc(a.modelName)} `}<code>${esc(a.model.id)}</code>, sha256 ${a.model.sha256 === null ? "not recorded" : `<code>${esc(a.model.sha256)}</code>`}`,
      ],
      ["Answered by", `ClauseGraph ${a.appVersion === null ? "(version not recorded)" : esc(a.appVersion)}`],
      ["Answer log record", `<code>${esc(a.logId)}</code>`],
    ]),
    "<h3>Answer</h3>",
    `<p class="answer">${esc(a.answer)}</p>`,
    ...(a.table === null ? [] : [table(a.table)]),
  ];
  for (const note of a.notes) parts.push(`<p class="note">${a.refused ? "Why not answered" : "Note"}: ${esc(note)}</p>`);
  if (a.unsupportedSentences > 0) parts.push(`<p class="note">${a.unsupportedSentences} sentence(s) not supported by the cited text, marked [unverified].</p>`);
  if (a.citations.length > 0) parts.push("<h3>Citations</h3>", ...a.citations.map(citation));
  return `<article>${parts.join("\n")}</article>`;
}

export function workpaperHtml(paper: Workpaper): string {
  const first = paper.answers[0]?.askedAt;
  const last = paper.answers.at(-1)?.askedAt;
  const head = meta([
    [paper.kind === "conversation" ? "Conversation" : "Answer", `<code>${esc(paper.id)}</code>`],
    ["Answers", String(paper.answers.length)],
    ...(first === undefined
      ? []
      : [["Asked", esc(first === last || last === undefined ? utcTime(first) : `${utcTime(first)} to ${utcTime(last)}`)] as [string, string]]),
    ["Exported with", `ClauseGraph ${esc(paper.exportedWith)}, from the library's answer log`],
  ]);
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<title>${esc(`Audit workpaper: ${paper.title}`)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    '<p class="print-hint">To keep this workpaper as a PDF, print this page (Ctrl+P or ⌘P) and choose “Save as PDF”.</p>',
    `<h1>Audit workpaper: ${esc(paper.title)}</h1>`,
    head,
    ...paper.gaps.map((g) => `<p class="note">${esc(g)}</p>`),
    ...paper.answers.map((a, i) => answer(a, i + 1)),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
