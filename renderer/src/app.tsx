import { useCallback, useMemo, useRef, useState } from "react";
import { useApi } from "./api/api-context.ts";
import type { AskCitation } from "./chat/ask-types.ts";
import { ChatPane } from "./chat/chat-pane.tsx";
import { ConversationList } from "./chat/conversation-list.tsx";
import { ComparePane } from "./compare/compare-pane.tsx";
import { useChat } from "./chat/use-chat.ts";
import { useConversations } from "./chat/use-conversations.ts";
import { useReopenLatest } from "./chat/use-reopen-latest.ts";
import { relatedSections } from "./graph/graph-model.ts";
import type { SectionRef } from "./graph/graph-model.ts";
import { GraphPane } from "./graph/graph-pane.tsx";
import { useGraph } from "./graph/use-graph.ts";
import { plural } from "./lib/format.ts";
import { useShortcuts } from "./lib/use-shortcuts.ts";
import { DropZone } from "./library/drop-zone.tsx";
import { LibraryPane } from "./library/library-pane.tsx";
import { ModelPicker } from "./models/model-picker.tsx";
import { useLibrary } from "./library/use-library.ts";
import { SearchPane } from "./search/search-pane.tsx";
import { forgetDocumentSections } from "./sections/document-sections.ts";
import { forgetPdf } from "./sections/pdf-source.ts";
import { ViewerPane } from "./sections/viewer-pane.tsx";
import type { ViewerTarget } from "./sections/viewer-pane.tsx";
import type { CitationTrail } from "./chat/citation-trail.ts";
import { ThemeToggle } from "./theme/theme-toggle.tsx";
import { useTheme } from "./theme/use-theme.ts";
import { WorkspaceTabs } from "./workspace/workspace-tabs.tsx";
import type { WorkspaceTab } from "./workspace/workspace-tabs.tsx";

// Chat and graph side by side, the library, search, history and section reader as tabs beside
// them: the answer, the evidence graph and the cited text are all visible at once.
export function App() {
  const api = useApi();
  const library = useLibrary(api);
  const { theme, toggle } = useTheme();
  const graph = useGraph(api);
  const [tab, setTab] = useState<WorkspaceTab>("library");
  const [target, setTarget] = useState<ViewerTarget>({ kind: "none" });
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const chat = useChat(api, (turn) => graph.show(turn.result.subgraph, turn.result.triplets, turn.question));
  // Conversations are kept in the library: the list refreshes with every recorded answer, and the
  // latest conversation comes back after a reload or a restart.
  const conversations = useConversations(api, `${chat.conversationId ?? ""}:${chat.turns.filter((t) => t.status === "done").length}`);
  useReopenLatest(api, chat);

  const documents = useMemo(() => new Map(library.documents.map((d) => [d.id, d] as const)), [library.documents]);
  const titles = useMemo(() => new Map(library.documents.map((d) => [d.id, d.title || d.fileName] as const)), [library.documents]);
  const sectionCount = library.documents.reduce((sum, d) => sum + d.sections, 0);

  // Dropped files show their progress and any error where the rows are: in the library.
  const addFiles = useCallback(
    (files: File[]) => {
      setTab("library");
      library.addFiles(files);
    },
    [library],
  );

  const openSection = useCallback((id: string, emphasis?: { start: number; end: number }, page?: number, trail?: CitationTrail) => {
    setTarget({
      kind: "section",
      id,
      ...(emphasis === undefined ? {} : { emphasis }),
      ...(page === undefined ? {} : { page }),
      ...(trail === undefined ? {} : { trail }),
    });
    setTab("reader");
  }, []);
  const openRef = useCallback((ref: SectionRef) => openSection(ref.sectionId, ref.highlight, ref.page), [openSection]);
  // A chip names the page it cites ("… p. 164"): the viewer opens there, not on the section's first
  // page, with the cited sentence highlighted (the rest of the section faintly).
  const openCitation = useCallback(
    (c: AskCitation, emphasis?: { start: number; end: number }, trail?: CitationTrail) =>
      openSection(c.sectionId, emphasis ?? c.spans?.[0], c.pageStart, trail),
    [openSection],
  );
  // "Previous citation" / "Next citation" in the viewer: the same answer's next cited sentence, on its page.
  const openStop = useCallback(
    (trail: CitationTrail) => {
      const stop = trail.stops[trail.index];
      if (stop !== undefined) openCitation(stop.citation, stop.emphasis, trail);
    },
    [openCitation],
  );

  useShortcuts({
    focusQuestion: () => questionRef.current?.focus(),
    cancel: () => chat.cancel(),
    toggleTheme: toggle,
  });

  const activeSectionId = target.kind === "section" ? target.id : null;
  const related = useMemo(() => (activeSectionId === null ? [] : relatedSections(graph.graph, activeSectionId)), [graph.graph, activeSectionId]);

  return (
    <DropZone onFiles={addFiles}>
      <div className="app">
        <header className="app-header">
          <h1>
            <span className="brand-mark" aria-hidden="true">
              ◆
            </span>{" "}
            ClauseGraph
          </h1>
          <span className="muted small" data-testid="library-stats">
            {plural(library.documents.length, "document")} · {plural(sectionCount, "section")}
          </span>
          <span className="spacer" />
          <ModelPicker api={api} refreshKey={chat.turns.filter((t) => t.status !== "asking").length} />
          <span className="muted small offline-note" title="Nothing leaves this computer">
            Offline · local library
          </span>
          <ThemeToggle theme={theme} onToggle={toggle} />
        </header>
        <main className={tab === "compare" ? "app-panes compare-open" : "app-panes"}>
          <div className="workspace">
            <WorkspaceTabs current={tab} onChange={setTab} />
            <div className="workspace-panel" id="panel-library" role="tabpanel" aria-labelledby="tab-library" hidden={tab !== "library"}>
              <LibraryPane
                library={library}
                selectedDocumentId={target.kind === "document" ? target.id : null}
                onOpenDocument={(id) => {
                  setTarget({ kind: "document", id });
                  setTab("reader");
                }}
                onDeleted={(id) => {
                  forgetPdf(id);
                  forgetDocumentSections(id);
                  if (target.kind === "document" && target.id === id) setTarget({ kind: "none" });
                  // A shown section of the deleted document would now answer NOT_FOUND: clear it.
                  if (target.kind === "section" && target.id.startsWith(`${id}:`)) setTarget({ kind: "none" });
                }}
              />
            </div>
            <div className="workspace-panel" id="panel-search" role="tabpanel" aria-labelledby="tab-search" hidden={tab !== "search"}>
              <SearchPane
                titles={titles}
                activeSectionId={activeSectionId}
                onOpenSection={(id) => openSection(id)}
                onResponse={(response) => graph.show(response.subgraph, response.triplets, `Search: ${response.query}`)}
              />
            </div>
            <div className="workspace-panel" id="panel-compare" role="tabpanel" aria-labelledby="tab-compare" hidden={tab !== "compare"}>
              <ComparePane
                documents={library.documents}
                libraryKey={library.documents.map((d) => d.id).join(",")}
                onShowGraph={(subgraph, triplets, title) => graph.show(subgraph, triplets, title)}
                onOpenSection={(id, span) => openSection(id, span)}
              />
            </div>
            <div className="workspace-panel" id="panel-history" role="tabpanel" aria-labelledby="tab-history" hidden={tab !== "history"}>
              <section className="pane" aria-label="Conversations">
                <ConversationList
                  list={conversations}
                  activeId={chat.conversationId}
                  onOpen={(id) => void chat.open(id)}
                  onNew={() => {
                    chat.startNew();
                    questionRef.current?.focus();
                  }}
                  onDeleted={(id) => {
                    if (id === chat.conversationId) chat.startNew();
                  }}
                />
              </section>
            </div>
            <div className="workspace-panel" id="panel-reader" role="tabpanel" aria-labelledby="tab-reader" hidden={tab !== "reader"}>
              <ViewerPane target={target} titles={titles} related={related} onOpenSection={(id) => openSection(id)} onOpenStop={openStop} />
            </div>
          </div>
          <ChatPane chat={chat} documents={documents} activeSectionId={activeSectionId} onOpenCitation={openCitation} questionRef={questionRef} />
          <GraphPane state={graph} theme={theme} documents={documents} onOpenSection={openRef} />
        </main>
      </div>
    </DropZone>
  );
}
