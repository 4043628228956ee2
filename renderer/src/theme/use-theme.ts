import { useCallback, useEffect, useState } from "react";

// The OS decides light or dark until the user picks one; the pick survives a reload. The choice
// lives on <html data-theme> so CSS and the graph (which reads CSS variables) follow it together.

export type Theme = "light" | "dark";

const STORAGE_KEY = "clausegraph.theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

function storedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

export function useTheme(): { theme: Theme; toggle(): void } {
  const [chosen, setChosen] = useState<Theme | null>(storedTheme);
  const [system, setSystem] = useState<Theme>(systemTheme);

  useEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const onChange = (): void => setSystem(query.matches ? "dark" : "light");
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  const theme = chosen ?? system;
  // Set during render, not in an effect: children (the graph) read the CSS variables in their own
  // effects, which run before a parent's, and must see the new theme.
  if (document.documentElement.dataset.theme !== theme) document.documentElement.dataset.theme = theme;

  const toggle = useCallback(() => {
    const next: Theme = theme === "dark" ? "light" : "dark";
    setChosen(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage may be disabled; the choice then lasts for this session only.
    }
  }, [theme]);

  return { theme, toggle };
}
