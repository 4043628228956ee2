import { ErrorMessage } from "../common/error-message.tsx";
import { DocumentRow } from "./document-row.tsx";
import { FilePicker } from "./file-picker.tsx";
import { ImportRow } from "./import-row.tsx";
import { LibraryHealthBanner } from "./library-health.tsx";
import { OcrSetting } from "./ocr-setting.tsx";
import type { Library } from "./use-library.ts";

interface Props {
  library: Library;
  selectedDocumentId: string | null;
  onOpenDocument(id: string): void;
  onDeleted(id: string): void;
}

export function LibraryPane({ library, selectedDocumentId, onOpenDocument, onDeleted }: Props) {
  const empty = library.loaded && library.documents.length === 0 && library.imports.length === 0;
  return (
    <section className="pane library-pane" aria-label="Library" data-testid="library">
      <header className="pane-header">
        <span className="muted small">Drop files anywhere in the window</span>
        <FilePicker onFiles={library.addFiles} />
      </header>
      <div className="library-settings">
        <OcrSetting preference={library.ocrPreference} onChange={library.setOcrPreference} />
      </div>
      {library.listError !== null ? <ErrorMessage error={library.listError} /> : null}
      <LibraryHealthBanner version={library.documents.map((d) => d.id).join(",")} onRepaired={() => void library.refresh()} />
      {empty ? (
        <p className="empty" data-testid="library-empty">
          No documents yet. Drop PDF, text or Markdown files anywhere in this window, or choose <em>Add files…</em>
        </p>
      ) : null}
      <ul className="library-list">
        {library.imports.map((entry) => (
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
        {library.documents.map((doc) => (
          <DocumentRow
            key={doc.id}
            document={doc}
            selected={doc.id === selectedDocumentId}
            onOpen={() => onOpenDocument(doc.id)}
            onSetAliases={(aliases) => library.setAliases(doc.id, aliases)}
            onDelete={async () => {
              const error = await library.deleteDocument(doc.id);
              if (error === null) onDeleted(doc.id);
              return error;
            }}
          />
        ))}
      </ul>
    </section>
  );
}
