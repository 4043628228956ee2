import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { DocumentRecord } from "../../../core/contract/contract.ts";
import { ErrorMessage } from "../common/error-message.tsx";
import { plural } from "../lib/format.ts";
import { filterDocuments, indexDocuments } from "./document-filter.ts";
import { DocumentRow } from "./document-row.tsx";
import { FilePicker } from "./file-picker.tsx";
import { ImportRow } from "./import-row.tsx";
import { LibraryHealthBanner } from "./library-health.tsx";
import { OcrSetting } from "./ocr-setting.tsx";
import type { Library } from "./use-library.ts";
import { VirtualList, type VirtualListHandle } from "./virtual-list.tsx";

interface Props {
  library: Library;
  selectedDocumentId: string | null;
  onOpenDocument(id: string): void;
  onDeleted(id: string): void;
}

/** A document row's usual height before any is measured (title, file line, names line). */
const ROW_ESTIMATE = 84;
/** Space between rows; the rows are placed by the list, not by CSS. */
const ROW_GAP = 6;

const documentKey = (d: DocumentRecord): string => d.id;

export function LibraryPane({ library, selectedDocumentId, onOpenDocument, onDeleted }: Props) {
  const { documents, imports } = library;
  const empty = library.loaded && documents.length === 0 && imports.length === 0;
  const [query, setQuery] = useState("");
  // Typing stays immediate; the list follows when React has time.
  const deferredQuery = useDeferredValue(query);
  const index = useMemo(() => indexDocuments(documents), [documents]);
  const shown = useMemo(() => filterDocuments(index, deferredQuery), [index, deferredQuery]);
  const filtering = deferredQuery.trim() !== "";
  const healthVersion = useMemo(() => documents.map((d) => d.id).join(","), [documents]);

  const scrollerRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<VirtualListHandle>(null);
  // A new filter starts at the top of its matches.
  useEffect(() => {
    scrollerRef.current?.scrollTo({ top: 0 });
  }, [deferredQuery]);

  // Rows with state of their own stay rendered when scrolled away, so nothing typed is lost.
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const onExpanded = useCallback((id: string, open: boolean) => {
    setExpanded((all) => {
      if (all.has(id) === open) return all;
      const next = new Set(all);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  // The parent passes fresh closures each render: rows get stable ones that read the latest.
  const latest = useRef({ library, onOpenDocument, onDeleted });
  latest.current = { library, onOpenDocument, onDeleted };
  const openDocument = useCallback((id: string) => latest.current.onOpenDocument(id), []);
  const deleteDocument = useCallback(async (id: string) => {
    const error = await latest.current.library.deleteDocument(id);
    if (error === null) latest.current.onDeleted(id);
    return error;
  }, []);
  const setAliases = useCallback((id: string, aliases: string[]) => latest.current.library.setAliases(id, aliases), []);

  const renderRow = useCallback(
    (doc: DocumentRecord) => (
      <DocumentRow
        document={doc}
        selected={doc.id === selectedDocumentId}
        onOpen={openDocument}
        onSetAliases={setAliases}
        onDelete={deleteDocument}
        onExpanded={onExpanded}
      />
    ),
    [selectedDocumentId, openDocument, setAliases, deleteDocument, onExpanded],
  );

  const count = filtering ? `${shown.length} of ${plural(documents.length, "document")}` : plural(documents.length, "document");

  return (
    <section className="pane library-pane" aria-label="Library" data-testid="library">
      <header className="pane-header">
        <span className="muted small">Drop files anywhere in the window</span>
        <FilePicker onFiles={library.addFiles} />
      </header>
      <div className="library-settings">
        <OcrSetting preference={library.ocrPreference} onChange={library.setOcrPreference} />
      </div>
      {documents.length > 0 ? (
        <div className="library-filter">
          <input
            type="search"
            placeholder="Filter documents…"
            aria-label="Filter documents by file name, title or other name"
            aria-controls="library-documents"
            data-testid="library-filter"
            value={query}
            maxLength={200}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Down from the filter goes to the first match, as in a list of results.
              if (e.key === "ArrowDown" && shown.length > 0) {
                e.preventDefault();
                listRef.current?.focusIndex(0);
              }
            }}
          />
          <span className="muted small library-count" data-testid="library-count" aria-live="polite">
            {count}
          </span>
        </div>
      ) : null}
      <div className="library-scroll" ref={scrollerRef} data-testid="library-scroll">
        {library.listError !== null ? <ErrorMessage error={library.listError} /> : null}
        <LibraryHealthBanner version={healthVersion} onRepaired={() => void library.refresh()} />
        {empty ? (
          <p className="empty" data-testid="library-empty">
            No documents yet. Drop PDF, text or Markdown files anywhere in this window, or choose <em>Add files…</em>
          </p>
        ) : null}
        {imports.length > 0 ? (
          <ul className="library-list imports" aria-label="Imports">
            {imports.map((entry) => (
              <ImportRow
                key={entry.key}
                entry={entry}
                onCancel={() => library.cancelImport(entry.key)}
                onDismiss={() => library.dismiss(entry.key)}
                onPassword={(password) => library.retryWithPassword(entry.key, password)}
                ocrLanguage={library.ocrPreference.language}
                onReadWithOcr={(language, remember) => library.readWithOcr(entry.key, language, remember)}
                onSkipOcr={(remember) => library.skipOcr(entry.key, remember)}
              />
            ))}
          </ul>
        ) : null}
        {filtering && shown.length === 0 ? (
          <p className="empty" data-testid="library-no-match">
            No document matches “{deferredQuery.trim()}”.
          </p>
        ) : null}
        <VirtualList
          items={shown}
          itemKey={documentKey}
          renderItem={renderRow}
          scrollerRef={scrollerRef}
          estimatedHeight={ROW_ESTIMATE}
          gap={ROW_GAP}
          overscan={5}
          keep={expanded}
          handle={listRef}
          focusSelector=".row-title"
          keyboard
          listProps={{ className: "document-list", id: "library-documents", "aria-label": "Documents", "data-testid": "library-documents" }}
        />
      </div>
    </section>
  );
}
