import type { Theme } from "./use-theme.ts";

export function ThemeToggle({ theme, onToggle }: { theme: Theme; onToggle(): void }) {
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="quiet icon-button"
      data-testid="theme-toggle"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={onToggle}
    >
      <span aria-hidden="true">{theme === "dark" ? "☀" : "☾"}</span>
    </button>
  );
}
