import { useMemo, useState } from "react";
import { useApi } from "./api/api-context.ts";
import { DropZone } from "./library/drop-zone.tsx";
import { LibraryPane } from "./library/library-pane.tsx";
import { useLibrary } from "./library/use-library.ts";
import { plural } from "./lib/format.ts";
import { SearchPane } from "./search/search-pane.tsx";
import { ViewerPane } from "./sections/viewer-pane.tsx";
import type { ViewerTarget } from "./sections/viewer-pane.tsx";

// Three panes side by side; the grid leaves room for the chat and graph panes of later stories.
export function App() {
  const api = useApi();
  const library = useLibrary(api);
  const [target, setTarget] = useState<ViewerTarget>({ kind: "none" });

  const titles = useMemo(
    () => new Map(library.documents.map((d) => [d.id, d.title || d.fileName] as const)),
    [library.documents],
  );
  const sectionCount = library.documents.reduce((sum, d) => sum + d.sections, 0);

  return (
    <DropZone onFiles={library.addFiles}>
      <div className="app">
        <header className="app-header">
          <h1>ClauseGraph</h1>
          <span className="muted" data-testid="library-stats">
            {plural(library.documents.length, "document")} · {plural(sectionCount, "section")}
          </span>
        </header>
        <main className="app-panes">
          <LibraryPane
            library={library}
            selectedDocumentId={target.kind === "document" ? target.id : null}
            onOpenDocument={(id) => setTarget({ kind: "document", id })}
            onDeleted={(id) => {
              if (target.kind === "document" && target.id === id) setTarget({ kind: "none" });
              // A shown section of the deleted document would now answer NOT_FOUND: clear it.
              if (target.kind === "section" && target.id.startsWith(`${id}:`)) setTarget({ kind: "none" });
            }}
          />
          <SearchPane
            titles={titles}
            activeSectionId={target.kind === "section" ? target.id : null}
            onOpenSection={(id) => setTarget({ kind: "section", id })}
          />
          <ViewerPane target={target} titles={titles} onOpenSection={(id) => setTarget({ kind: "section", id })} />
        </main>
      </div>
    </DropZone>
  );
}
