import type { ExportFile } from "../../../core/contract/contract.ts";

// Saves text the engine made (a workpaper) as a file: a Blob behind a temporary link with a
// `download` name. The same works in the browser (web host) and in Electron's window, with no
// file-system access in the renderer.

export function downloadFile(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference by now; the URL is dropped a little later, never leaked.
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
