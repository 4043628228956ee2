import { useRef } from "react";
import { ACCEPTED_TYPES } from "../lib/format.ts";

export function FilePicker({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="primary" data-testid="import-button" onClick={() => input.current?.click()}>
        Add files…
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPTED_TYPES}
        hidden
        data-testid="file-input"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          // Reset so picking the same file again (e.g. after fixing it) fires change again.
          e.currentTarget.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
