import type { AskCitation, GraphRow } from "../../../core/contract/contract.ts";
import { CitationChip } from "./citation-chip.tsx";

interface Props {
  columns: string[];
  rows: GraphRow[];
  /** The chip's text for a row's citation ("DORA Art. 19, p. 42"). */
  chipText(citation: AskCitation): string;
  activeSectionId: string | null;
  onOpen(citation: AskCitation): void;
}

/**
 * A graph answer's rows: one line per fact the graph holds, its columns as the query
 * named them, and the section and page it rests on as a chip that opens it there.
 */
export function GraphRowsTable({ columns: all, rows, chipText, activeSectionId, onOpen }: Props) {
  // A column that only repeats each row's source ("DORA Art. 19" beside "DORA Art. 19, p. 42")
  // takes width the chat pane does not have: the Source column says it.
  const repeatsSource = (name: string): boolean =>
    rows.length > 0 &&
    rows.every((row) => {
      const value = row.cells.find((c) => c.name === name)?.value ?? "";
      return value !== "" && chipText(row.citation).startsWith(`${value},`);
    });
  const empty = (name: string): boolean => rows.every((row) => (row.cells.find((c) => c.name === name)?.value ?? "") === "");
  const columns = all.filter((c) => !repeatsSource(c) && !empty(c));
  return (
    <div className="graph-rows-wrap">
      <table className="graph-rows" data-testid="graph-rows">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} data-testid="graph-row">
              {columns.map((c) => (
                <td key={c} data-label={c}>
                  {row.cells.find((cell) => cell.name === c)?.value ?? ""}
                </td>
              ))}
              <td data-label="Source">
                <CitationChip
                  citation={row.citation}
                  text={chipText(row.citation)}
                  active={row.citation.sectionId === activeSectionId}
                  onOpen={() => onOpen(row.citation)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
