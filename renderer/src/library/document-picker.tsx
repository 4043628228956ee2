import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import { plural } from "../lib/format.ts";
import { filterWords, matchesWords } from "./document-filter.ts";
import { VirtualList, type VirtualListHandle } from "./virtual-list.tsx";

// Choosing one document among hundreds: a text field that filters as one types, over a list of
// the matches (file name and title), in the ARIA combobox pattern: Up/Down move through the
// matches, Enter picks, Escape closes, the field keeps the focus throughout. A native <select>
// of every document is a scroll through hundreds of lines with no way to search.

export interface PickerChoice {
  /** What the form receives. */
  value: string;
  /** Shown in the field once chosen. */
  label: string;
  /** The option's first line (the file name). */
  name: string;
  /** The option's second line (the title), "" for none. */
  detail: string;
  /** Folded text the filter's words are looked for in (document-filter.ts). */
  text: string;
}

interface Props {
  choices: readonly PickerChoice[];
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  /** The element naming the field. */
  labelledBy: string;
  testId: string;
  placeholder?: string;
}

const OPTION_ESTIMATE = 44;
const PAGE_STEP = 8;

const choiceKey = (c: PickerChoice): string => c.value;

function matching(choices: readonly PickerChoice[], query: string): readonly PickerChoice[] {
  const words = filterWords(query);
  return words.length === 0 ? choices : choices.filter((c) => matchesWords(c.text, words));
}

export function DocumentPicker({ choices, value, onChange, disabled = false, labelledBy, testId, placeholder = "Choose a document…" }: Props) {
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (v: string): string => `${id}-option-${v}`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<VirtualListHandle>(null);

  const chosen = useMemo(() => choices.find((c) => c.value === value), [choices, value]);
  const matches = useMemo(() => matching(choices, query), [choices, query]);
  const activeIndex = active === null ? -1 : matches.findIndex((c) => c.value === active);
  const keep = useMemo(() => new Set(active === null ? [] : [active]), [active]);

  // The highlighted option is always in view, whether moved to by key or opened on.
  useEffect(() => {
    if (open && activeIndex >= 0) listRef.current?.scrollToIndex(activeIndex);
  }, [open, activeIndex]);

  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);

  const openList = (): void => {
    setOpen(true);
    setQuery("");
    setActive(chosen?.value ?? choices[0]?.value ?? null);
  };
  const close = (): void => {
    setOpen(false);
    setQuery("");
    setActive(null);
  };
  const pick = (next: string): void => {
    onChange(next);
    close();
  };
  const move = (delta: number): void => {
    if (matches.length === 0) return;
    const from = activeIndex < 0 ? (delta > 0 ? -1 : matches.length) : activeIndex;
    const next = Math.max(0, Math.min(matches.length - 1, from + delta));
    setActive(matches[next]?.value ?? null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: PAGE_STEP, PageUp: -PAGE_STEP };
    const step = steps[event.key];
    if (step !== undefined && (open || Math.abs(step) === 1)) {
      event.preventDefault();
      if (open) move(step);
      else openList();
    } else if (event.key === "Enter" && open) {
      // Closed, Enter submits the form as usual.
      event.preventDefault();
      const current = matches[activeIndex];
      if (current !== undefined) pick(current.value);
    } else if (event.key === "Escape" && open) {
      // Handled: the window's Escape (cancel the answer being written) is not for this.
      event.preventDefault();
      close();
    } else if (event.key === "Tab" && open) {
      close();
    }
  };

  return (
    <div className={open ? "document-picker open" : "document-picker"}>
      <div className="picker-field">
        <input
          ref={inputRef}
          type="text"
          role="combobox"
          aria-labelledby={labelledBy}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && activeIndex >= 0 && active !== null ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          data-testid={testId}
          data-value={value}
          disabled={disabled}
          value={open ? query : (chosen?.label ?? "")}
          placeholder={open ? (chosen?.label ?? "Type to filter…") : placeholder}
          title={open ? undefined : chosen?.label}
          maxLength={200}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setQuery(text);
            setOpen(true);
            setActive(matching(choices, text)[0]?.value ?? null);
          }}
          onClick={() => {
            if (!open) openList();
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
        />
        <button
          type="button"
          className="picker-toggle quiet"
          tabIndex={-1}
          aria-label={open ? "Hide the documents" : "Show the documents"}
          disabled={disabled}
          // Keeps the focus in the field, so its blur does not close the list first.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            if (open) {
              close();
            } else {
              inputRef.current?.focus();
              openList();
            }
          }}
        >
          ▾
        </button>
      </div>
      {open ? (
        <div className="picker-popup" onMouseDown={(event) => event.preventDefault()}>
          <div className="picker-scroll" ref={scrollerRef}>
            <VirtualList
              items={matches}
              itemKey={choiceKey}
              scrollerRef={scrollerRef}
              estimatedHeight={OPTION_ESTIMATE}
              overscan={6}
              keep={keep}
              handle={listRef}
              listProps={{ role: "listbox", id: listId, "aria-labelledby": labelledBy, className: "picker-list", "data-testid": `${testId}-list` }}
              itemProps={(choice) => ({
                role: "option",
                id: optionId(choice.value),
                "aria-selected": choice.value === active,
                className: ["picker-option", choice.value === active ? "active" : "", choice.value === value ? "chosen" : ""].join(" ").trim(),
                "data-testid": `${testId}-option`,
                "data-value": choice.value,
                title: choice.label,
                onClick: () => pick(choice.value),
              })}
              renderItem={(choice) => (
                <>
                  <span className="picker-name">{choice.name}</span>
                  {choice.detail !== "" ? <span className="picker-detail">{choice.detail}</span> : null}
                </>
              )}
            />
          </div>
          <div className="picker-count muted small" aria-live="polite" data-testid={`${testId}-count`}>
            {matches.length === 0 ? `Nothing matches “${query.trim()}”` : plural(matches.length, "match", "matches")}
          </div>
        </div>
      ) : null}
    </div>
  );
}
