import { useRef, useState } from "react";
import type { DragEvent, ReactNode } from "react";

// The whole window accepts dropped files: an auditor drags a folder's PDFs anywhere onto the app.
function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes("Files");
}

export function DropZone({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed; a counter tells when the pointer really left.
  const depth = useRef(0);

  return (
    <div
      className={dragging ? "drop-zone dragging" : "drop-zone"}
      data-testid="drop-zone"
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current += 1;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setDragging(false);
        const files = Array.from(e.dataTransfer.files);
        if (files.length > 0) onFiles(files);
      }}
    >
      {children}
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop PDF, text or Markdown files to add them to the library</p>
        </div>
      ) : null}
    </div>
  );
}
