import { useLayoutEffect, useState, type RefObject } from 'react';

export interface Point {
  x: number;
  y: number;
}

const sameAnchors = (a: Record<string, Point>, b: Record<string, Point>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key]?.x === b[key]?.x && a[key]?.y === b[key]?.y);
};

/**
 * Where each element marked `data-anchor` sits (its centre), relative to the container's content
 * (scrolled parts included): the ends of the connections drawn over the blocks. Measured after
 * every render and whenever the container changes size, so connections follow the blocks however
 * the layout flows.
 */
export function useAnchors(container: RefObject<HTMLElement | null>): Record<string, Point> {
  const [anchors, setAnchors] = useState<Record<string, Point>>({});

  const measure = () => {
    const root = container.current;
    if (!root) return;
    const origin = root.getBoundingClientRect();
    const found: Record<string, Point> = {};
    for (const element of root.querySelectorAll<HTMLElement>('[data-anchor]')) {
      const box = element.getBoundingClientRect();
      found[element.dataset.anchor as string] = { x: Math.round(box.left + box.width / 2 - origin.left + root.scrollLeft), y: Math.round(box.top + box.height / 2 - origin.top + root.scrollTop) };
    }
    setAnchors((previous) => (sameAnchors(previous, found) ? previous : found));
  };

  useLayoutEffect(measure);
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const observer = new ResizeObserver(measure);
    observer.observe(root);
    return () => observer.disconnect();
  }, [container]);
  return anchors;
}
