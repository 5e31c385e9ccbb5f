import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** Where the console lives (Vite's `base`); its routes are paths below it. */
export const BASE = '/console';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** The route: the path below /console, e.g. `/projects/p1`. */
export function usePath(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => window.location.pathname.slice(BASE.length) || '/',
  );
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', BASE + path);
  else window.history.pushState(null, '', BASE + path);
  listeners.forEach((listener) => listener());
}

/** A mailed link's token: in the fragment (`#token=...`), which the browser never sends to a server. */
export function tokenInFragment(): string | undefined {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? undefined;
}

/** A link within the console: a real `href` (opens in a new tab too), navigation without a reload. */
export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...props} href={BASE + to} onClick={onClick} />;
}

/** Matches `/projects/:projectId` style patterns; answers the decoded parameters or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const patternParts = pattern.split('/');
  const pathParts = path.split('/');
  if (patternParts.length !== pathParts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return undefined;
  }
  return params;
}

/**
 * Where sign-in or sign-up goes once done: the console path that asked for a session (`?next=`),
 * else the projects. Only a path within the console is taken (navigate keeps it below /console).
 */
export function returnPath(): string {
  const next = new URLSearchParams(window.location.search).get('next');
  return next?.startsWith('/') ? next : '/projects';
}

/** `path` carrying on the current `?next=`, for links between sign-in and sign-up. */
export function keepingReturnPath(path: string): string {
  const next = new URLSearchParams(window.location.search).get('next');
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}
