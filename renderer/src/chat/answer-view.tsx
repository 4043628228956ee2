import type { DocumentRecord } from "../../../core/contract/contract.ts";
import { citationText, shortTitle } from "../lib/citation-text.ts";
import type { AskCitation, AskResult } from "./ask-types.ts";
import { CitationChip } from "./citation-chip.tsx";
import { CopyButton } from "./copy-button.tsx";
import { ModeBadge } from "./mode-badge.tsx";

interface Props {
  result: AskResult;
  documents: ReadonlyMap<string, DocumentRecord>;
  activeSectionId: string | null;
  onOpenCitation(citation: AskCitation): void;
}

const UNSUPPORTED_TIP =
  "Not supported by a cited passage: no retrieved section states this. Check it against the sources before relying on it.";

export function AnswerView({ result, documents, activeSectionId, onOpenCitation }: Props) {
  const byKey = new Map(result.citations.map((c) => [c.key, c]));
  // The engine already labels citations the way auditors cite ("DORA Art. 19(4), p. 42"); older
  // answers without a page in the label get one here.
  const chipText = (c: AskCitation): string =>
    /\bpp?\. \d/.test(c.label) ? c.label : citationText(shortTitle(documents.get(c.documentId), c.file), c.label, c.pageStart, c.pageEnd);
  const copyText = (): string => {
    const body = result.sentences.length > 0
      ? result.sentences.map((s) => `${s.text}${s.citationKeys.length > 0 ? ` [${s.citationKeys.join(", ")}]` : ""}${s.supported ? "" : " (unsupported)"}`).join(" ")
      : result.answer;
    const sources = result.citations.map((c) => `[${c.key}] ${chipText(c)} — ${c.file}`);
    return sources.length > 0 ? `${body}\n\nSources:\n${sources.join("\n")}` : body;
  };
  const unsupported = result.sentences.filter((s) => !s.supported).length;

  return (
    <div className="answer" data-testid="answer" data-mode={result.mode}>
      <div className="answer-body">
        {result.sentences.length === 0 ? <p>{result.answer}</p> : null}
        {result.sentences.length > 0 ? (
          <p>
            {result.sentences.map((s, i) => (
              <span key={i}>
                <span
                  className={s.supported ? "sentence" : "sentence unsupported"}
                  data-testid={s.supported ? "answer-sentence" : "unsupported-sentence"}
                  title={s.supported ? undefined : UNSUPPORTED_TIP}
                >
                  {s.supported ? null : (
                    <span className="unsupported-mark" aria-label="Unsupported:">
                      ⚠{" "}
                    </span>
                  )}
                  {s.text}
                </span>
                {[...new Set(s.citationKeys)].map((key) => {
                  const c = byKey.get(key);
                  return c === undefined ? null : (
                    <CitationChip key={key} citation={c} text={chipText(c)} active={c.sectionId === activeSectionId} onOpen={() => onOpenCitation(c)} />
                  );
                })}{" "}
              </span>
            ))}
          </p>
        ) : null}
      </div>
      <div className="answer-footer">
        <ModeBadge mode={result.mode} />
        {unsupported > 0 ? (
          <span className="muted small" title={UNSUPPORTED_TIP}>
            {unsupported === 1 ? "1 sentence is" : `${unsupported} sentences are`} not backed by a citation
          </span>
        ) : null}
        <span className="spacer" />
        <CopyButton text={copyText} />
      </div>
      {result.citations.length > 0 ? (
        <div className="sources" data-testid="answer-sources">
          <span className="muted small">Sources</span>
          {result.citations.map((c) => (
            <CitationChip key={c.key} citation={c} text={chipText(c)} active={c.sectionId === activeSectionId} onOpen={() => onOpenCitation(c)} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
