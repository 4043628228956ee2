import { useEffect, useRef } from "react";

// Window-wide keys. Handlers are read through a ref so callers can pass fresh closures each render
// without re-binding the listener.

export interface Shortcuts {
  /** Ctrl/Cmd+K */
  focusQuestion(): void;
  /** Escape */
  cancel(): void;
  /** Ctrl/Cmd+Shift+L */
  toggleTheme(): void;
}

export function useShortcuts(shortcuts: Shortcuts): void {
  const current = useRef(shortcuts);
  current.current = shortcuts;
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.shiftKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        current.current.focusQuestion();
      } else if (mod && event.shiftKey && event.key.toLowerCase() === "l") {
        event.preventDefault();
        current.current.toggleTheme();
      } else if (event.key === "Escape" && !event.defaultPrevented) {
        current.current.cancel();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
