import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { FocusEvent, HTMLAttributes, KeyboardEvent, ReactNode, Ref, RefObject } from "react";
import { flushSync } from "react-dom";

// A list that puts in the DOM only the items in view, a few beyond each edge, and the items it is
// told to keep (an open editor, the focused row): a library of hundreds of documents would
// otherwise lay out and re-render every row. Items may differ in height: each rendered item is
// measured (ResizeObserver) and an item not yet seen counts as the average of those measured, so
// the list's height, hence the scroll bar, stays close to the truth. Items are absolutely placed
// inside a list as tall as all of them; the element that scrolls may be the list's parent or an
// ancestor with other content above the list.

export interface VirtualListHandle {
  /** Scrolls the least needed to bring the item into view. */
  scrollToIndex(index: number): void;
  /** Brings the item into view and focuses its `focusSelector` element (or the item itself). */
  focusIndex(index: number): void;
}

type DataAttributes = { [name: `data-${string}`]: string | undefined };
export type ListProps = HTMLAttributes<HTMLUListElement> & DataAttributes;
export type ItemProps = HTMLAttributes<HTMLLIElement> & DataAttributes;

interface Props<T> {
  items: readonly T[];
  itemKey(item: T): string;
  renderItem(item: T, index: number): ReactNode;
  scrollerRef: RefObject<HTMLElement | null>;
  /** Height assumed for an item before any has been measured. */
  estimatedHeight: number;
  /** Space between items, in pixels. */
  gap?: number;
  /** Items rendered beyond each edge of the view, so a short scroll shows no blank. */
  overscan?: number;
  /** Keys of items to keep rendered wherever they are. */
  keep?: ReadonlySet<string>;
  listProps?: ListProps;
  itemProps?(item: T, index: number): ItemProps;
  handle?: Ref<VirtualListHandle>;
  /** What focusIndex focuses inside an item. */
  focusSelector?: string;
  /** Up/Down, Page Up/Down, Home/End move the focus between items (not from inside a text field). */
  keyboard?: boolean;
}

interface Range {
  start: number;
  end: number;
}

function firstAtOrBelow(offsets: Float64Array, count: number, y: number): number {
  // The last item whose top is at or above y.
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

const TEXT_FIELD = "input, textarea, select, [contenteditable='true']";

export function VirtualList<T>({
  items,
  itemKey,
  renderItem,
  scrollerRef,
  estimatedHeight,
  gap = 0,
  overscan = 4,
  keep,
  listProps,
  itemProps,
  handle,
  focusSelector,
  keyboard = false,
}: Props<T>) {
  const listRef = useRef<HTMLUListElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [range, setRange] = useState<Range>({ start: 0, end: 0 });
  // The viewport's last non-zero height: a hidden tab reports none and would otherwise render nothing.
  const viewportHeight = useRef(0);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);

  const keys = useMemo(() => items.map(itemKey), [items, itemKey]);
  const indexOfKey = useMemo(() => new Map(keys.map((key, index) => [key, index] as const)), [keys]);

  const layout = useMemo(() => {
    let sum = 0;
    let seen = 0;
    for (const key of keys) {
      const h = heights.current.get(key);
      if (h !== undefined) {
        sum += h;
        seen++;
      }
    }
    const guess = seen > 0 ? sum / seen : estimatedHeight;
    const offsets = new Float64Array(keys.length + 1);
    keys.forEach((key, i) => {
      offsets[i + 1] = (offsets[i] ?? 0) + (heights.current.get(key) ?? guess) + gap;
    });
    const total = keys.length === 0 ? 0 : (offsets[keys.length] ?? 0) - gap;
    return { offsets, total, guess };
    // `measured` is a dependency though unread: it changes whenever a height in the map does.
  }, [keys, measured, estimatedHeight, gap]);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;

  /** Where the list's top is, in the scroller's content coordinates. */
  const listTopInScroller = useCallback((): number => {
    const list = listRef.current;
    const scroller = scrollerRef.current;
    if (list === null || scroller === null) return 0;
    return list.getBoundingClientRect().top - scroller.getBoundingClientRect().top - scroller.clientTop + scroller.scrollTop;
  }, [scrollerRef]);

  const updateRange = useCallback(() => {
    const scroller = scrollerRef.current;
    if (scroller === null) return;
    if (scroller.clientHeight > 0) viewportHeight.current = scroller.clientHeight;
    const height = viewportHeight.current > 0 ? viewportHeight.current : window.innerHeight;
    const { offsets } = layoutRef.current;
    const count = offsets.length - 1;
    if (count === 0) {
      setRange((r) => (r.start === 0 && r.end === 0 ? r : { start: 0, end: 0 }));
      return;
    }
    // A hidden scroller has no geometry: keep the window where it was.
    const top = scroller.clientHeight > 0 ? scroller.scrollTop - listTopInScroller() : 0;
    const first = firstAtOrBelow(offsets, count, Math.max(0, top));
    const last = firstAtOrBelow(offsets, count, Math.max(0, top + height));
    const start = Math.max(0, first - overscan);
    const end = Math.min(count, last + 1 + overscan);
    setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
  }, [scrollerRef, listTopInScroller, overscan]);

  // After every render: content above the list or the items themselves may have moved.
  useLayoutEffect(updateRange);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (scroller === null) return;
    scroller.addEventListener("scroll", updateRange, { passive: true });
    const observer = new ResizeObserver(updateRange);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener("scroll", updateRange);
      observer.disconnect();
    };
  }, [scrollerRef, updateRange]);

  // One observer for every rendered item; a changed height is applied before the next paint so
  // items never overlap on screen.
  const itemObserver = useRef<ResizeObserver | null>(null);
  const observerFor = useCallback((): ResizeObserver => {
    if (itemObserver.current === null) {
      itemObserver.current = new ResizeObserver((entries) => {
        let changed = false;
        for (const entry of entries) {
          const key = (entry.target as HTMLElement).dataset.key;
          const height = entry.borderBoxSize[0]?.blockSize ?? entry.target.getBoundingClientRect().height;
          if (key === undefined || height === 0) continue;
          if (Math.abs((heights.current.get(key) ?? -1) - height) > 0.5) {
            heights.current.set(key, height);
            changed = true;
          }
        }
        if (changed) flushSync(() => setMeasured((n) => n + 1));
      });
    }
    return itemObserver.current;
  }, []);
  useEffect(
    () => () => {
      itemObserver.current?.disconnect();
      itemObserver.current = null;
    },
    [],
  );
  const observe = useCallback(
    (element: HTMLLIElement | null) => {
      if (element === null) return;
      const observer = observerFor();
      observer.observe(element);
      return () => observer.unobserve(element);
    },
    [observerFor],
  );

  const scrollToIndex = useCallback(
    (index: number) => {
      const scroller = scrollerRef.current;
      const { offsets } = layoutRef.current;
      if (scroller === null || index < 0 || index >= offsets.length - 1) return;
      const base = listTopInScroller();
      const top = base + (offsets[index] ?? 0);
      const bottom = base + (offsets[index + 1] ?? 0) - gap;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
      updateRange();
    },
    [scrollerRef, listTopInScroller, gap, updateRange],
  );

  const focusIndex = useCallback(
    (index: number) => {
      const key = keys[index];
      if (key === undefined) return;
      scrollToIndex(index);
      setFocusRequest({ key });
    },
    [keys, scrollToIndex],
  );

  useImperativeHandle(handle, () => ({ scrollToIndex, focusIndex }), [scrollToIndex, focusIndex]);

  // Focus once the requested item is in the DOM (it is kept rendered from the request on).
  useLayoutEffect(() => {
    if (focusRequest === null) return;
    const item = listRef.current?.querySelector<HTMLElement>(`li[data-key="${CSS.escape(focusRequest.key)}"]`);
    if (item === null || item === undefined) return;
    const target = focusSelector === undefined ? item : (item.querySelector<HTMLElement>(focusSelector) ?? item);
    target.focus();
    setFocusRequest(null);
  }, [focusRequest, focusSelector]);

  const rendered = useMemo(() => {
    const indices = new Set<number>();
    for (let i = range.start; i < Math.min(range.end, keys.length); i++) indices.add(i);
    const kept = [...(keep ?? []), focusedKey, focusRequest?.key];
    for (const key of kept) {
      const index = key === null || key === undefined ? undefined : indexOfKey.get(key);
      if (index !== undefined) indices.add(index);
    }
    return [...indices].sort((a, b) => a - b);
  }, [range, keys.length, keep, focusedKey, focusRequest, indexOfKey]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    listProps?.onKeyDown?.(event);
    if (!keyboard || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    if (target.closest(TEXT_FIELD) !== null) return;
    const index = Number(target.closest<HTMLElement>("li[data-index]")?.dataset.index ?? NaN);
    if (Number.isNaN(index)) return;
    const page = Math.max(1, Math.floor((viewportHeight.current || window.innerHeight) / Math.max(1, layout.guess + gap)) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: keys.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusIndex(Math.max(0, Math.min(keys.length - 1, next)));
  };

  const keyOfTarget = (target: EventTarget | null): string | null =>
    target instanceof Element ? (target.closest<HTMLElement>("li[data-key]")?.dataset.key ?? null) : null;
  const onFocus = (event: FocusEvent<HTMLUListElement>): void => {
    listProps?.onFocus?.(event);
    setFocusedKey(keyOfTarget(event.target));
  };
  const onBlur = (event: FocusEvent<HTMLUListElement>): void => {
    listProps?.onBlur?.(event);
    // Focus moving within the list is followed by its own focus event.
    if (!(event.relatedTarget instanceof Node && listRef.current?.contains(event.relatedTarget))) setFocusedKey(null);
  };

  return (
    <ul
      {...listProps}
      ref={listRef}
      style={{ ...listProps?.style, position: "relative", height: layout.total }}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {rendered.map((index) => {
        const item = items[index] as T;
        const key = keys[index] ?? "";
        const extra = itemProps?.(item, index);
        return (
          <li
            {...extra}
            key={key}
            ref={observe}
            data-key={key}
            data-index={index}
            aria-setsize={keys.length}
            aria-posinset={index + 1}
            style={{ ...extra?.style, position: "absolute", top: layout.offsets[index] ?? 0, left: 0, right: 0 }}
          >
            {renderItem(item, index)}
          </li>
        );
      })}
    </ul>
  );
}
