import { useEffect, useRef } from "react";
import type { TextPiece } from "./section-text-model.ts";

interface Props {
  paragraphs: TextPiece[][];
  labelOf(sectionId: string): string;
  onOpenSection(id: string): void;
}

export function SectionText({ paragraphs, labelOf, onOpenSection }: Props) {
  const root = useRef<HTMLDivElement>(null);
  // Evidence may be far down a long article: bring it into view when it is shown.
  useEffect(() => {
    root.current?.querySelector("mark")?.scrollIntoView({ block: "nearest" });
  }, [paragraphs]);

  if (paragraphs.length === 0) return <p className="muted">(no body text)</p>;
  return (
    <div ref={root} className="section-text" data-testid="section-text">
      {paragraphs.map((pieces, i) => (
        <p key={i}>
          {pieces.map((piece, j) => {
            if (piece.marked === true)
              return (
                <mark key={j} data-testid="evidence">
                  {piece.text}
                </mark>
              );
            if (piece.linkTo !== undefined) {
              const target = piece.linkTo;
              return (
                <button key={j} type="button" className="xref" data-testid="xref" title={`Open ${labelOf(target)}`} onClick={() => onOpenSection(target)}>
                  {piece.text}
                </button>
              );
            }
            return <span key={j}>{piece.text}</span>;
          })}
        </p>
      ))}
    </div>
  );
}
