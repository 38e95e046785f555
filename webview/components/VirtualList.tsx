/**
 * A small virtualised scroller: only the rows near the viewport are in the DOM. Row heights are
 * measured after render (and re-measured when a row resizes); unmeasured rows use an estimate.
 * Spacer heights are CSS custom properties set through CSSOM, which a strict CSP allows.
 *
 * Auto-scroll: while "following", every render ends at the bottom. Any upward scroll by the
 * person (wheel, keys, scrollbar) stops following; reaching the bottom again resumes it. The
 * list never moves the scroll position while not following.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  estimate: (item: T) => number;
  renderItem: (item: T) => ComponentChildren;
  label: string;
  initialScrollTop?: number;
  initialFollow?: boolean;
  /** Pixels rendered beyond each edge of the viewport. */
  overscan?: number;
  onScrollChange?: (top: number, follow: boolean) => void;
}

/** Used before the scroller has a size (e.g. not laid out yet). */
const FALLBACK_VIEWPORT = 600;
/** Within this many pixels of the bottom counts as "at the bottom". */
const BOTTOM_SLACK = 24;
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/** First index whose row ends after `y`. */
function firstRowEndingAfter(tops: Float64Array, y: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid + 1]! > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, itemKey, estimate, renderItem } = props;
  const overscan = props.overscan ?? 400;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const follow = useRef(props.initialFollow ?? true);
  const programmaticTop = useRef(-1);
  const restored = useRef(false);
  const [following, setFollowing] = useState(follow.current);
  const [layoutVersion, setLayoutVersion] = useState(0);
  const [viewport, setViewport] = useState({ top: props.initialScrollTop ?? 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());

  const setFollow = useCallback((value: boolean) => {
    follow.current = value;
    setFollowing(value);
  }, []);

  const { keys, tops } = useMemo(() => {
    const keys = items.map(itemKey);
    const tops = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) {
      tops[i + 1] = tops[i]! + (heights.current.get(keys[i]!) ?? estimate(items[i]!));
    }
    return { keys, tops };
    // layoutVersion changes whenever a measured height does.
  }, [items, itemKey, estimate, layoutVersion]);

  const total = tops[items.length]!;
  const vh = viewport.height || FALLBACK_VIEWPORT;
  const top = follow.current ? Math.max(0, total - vh) : viewport.top;
  const start = items.length === 0 ? 0 : firstRowEndingAfter(tops, top - overscan);
  let end = start;
  while (end < items.length && tops[end]! < top + vh + overscan) end++;

  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const el = entry.target as HTMLElement;
        if (el === scroller.current) {
          setViewport((v) => (v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
          continue;
        }
        const key = el.dataset.key;
        const h = el.offsetHeight;
        if (key !== undefined && h > 0 && heights.current.get(key) !== h) {
          heights.current.set(key, h);
          changed = true;
        }
      }
      if (changed) setLayoutVersion((v) => v + 1);
    });
    observer.current = ro;
    if (scroller.current) ro.observe(scroller.current);
    return () => {
      ro.disconnect();
      observer.current = null;
      observed.current.clear();
    };
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    el.style.setProperty('--pw-before', `${tops[start]!}px`);
    el.style.setProperty('--pw-after', `${total - tops[end]!}px`);

    let changed = false;
    const present = new Set<Element>();
    for (const row of el.querySelectorAll<HTMLElement>(':scope > .pw-row')) {
      present.add(row);
      const key = row.dataset.key;
      const h = row.offsetHeight;
      if (key !== undefined && h > 0 && heights.current.get(key) !== h) {
        heights.current.set(key, h);
        changed = true;
      }
      if (observer.current && !observed.current.has(row)) {
        observer.current.observe(row);
        observed.current.add(row);
      }
    }
    for (const row of observed.current) {
      if (!present.has(row)) {
        observer.current?.unobserve(row);
        observed.current.delete(row);
      }
    }

    if (!restored.current) {
      restored.current = true;
      if (el.clientHeight > 0 && viewport.height !== el.clientHeight) {
        setViewport({ top: el.scrollTop, height: el.clientHeight });
      }
      if (!follow.current) {
        el.scrollTop = props.initialScrollTop ?? 0;
        programmaticTop.current = el.scrollTop;
      }
    }
    if (follow.current) {
      const bottom = el.scrollHeight - el.clientHeight;
      if (Math.abs(el.scrollTop - bottom) > 1) {
        el.scrollTop = bottom;
        programmaticTop.current = el.scrollTop;
      }
    }
    if (changed) setLayoutVersion((v) => v + 1);
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK;
    if (atBottom) {
      if (!follow.current) setFollow(true);
    } else if (follow.current && Math.abs(el.scrollTop - programmaticTop.current) > 2) {
      setFollow(false);
    }
    setViewport({ top: el.scrollTop, height: el.clientHeight });
    props.onScrollChange?.(el.scrollTop, follow.current);
  };

  const jumpToLatest = () => {
    setFollow(true);
    const el = scroller.current;
    if (el) {
      el.scrollTop = el.scrollHeight;
      programmaticTop.current = el.scrollTop;
    }
  };

  return (
    <div class="pw-virtual">
      <div
        ref={scroller}
        class="pw-scroller"
        role="log"
        aria-live="off"
        aria-label={props.label}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(e) => {
          if (e.deltaY < 0 && follow.current) setFollow(false);
        }}
        onKeyDown={(e) => {
          if (UP_KEYS.has(e.key) && e.target === scroller.current && follow.current) setFollow(false);
        }}
      >
        <div class="pw-spacer pw-spacer-before" />
        {items.slice(start, end).map((item, i) => (
          <div class="pw-row" key={keys[start + i]} data-key={keys[start + i]}>
            {renderItem(item)}
          </div>
        ))}
        <div class="pw-spacer pw-spacer-after" />
      </div>
      {!following && items.length > 0 ? (
        <button type="button" class="pw-jump" onClick={jumpToLatest}>
          Jump to latest
        </button>
      ) : null}
    </div>
  );
}
