import { createHash } from 'node:crypto';

const PALETTE = ['#1e88e5', '#43a047', '#e53935', '#8e24aa', '#fb8c00', '#00897b', '#3949ab', '#6d4c41'];

/** Up to two initials from a name: letters and digits only, so nothing in them needs escaping. */
export function initialsOf(name: string | undefined): string {
  const words = (name ?? '').split(/\s+/).map((word) => [...word].find((c) => /[\p{L}\p{N}]/u.test(c))).filter(Boolean);
  const initials = words.length > 1 ? `${words[0]}${words.at(-1)}` : (words[0] ?? '?');
  return initials.toUpperCase();
}

/** A deterministic fallback avatar: the initials on a colour chosen by the user id. */
export function initialsAvatarSvg(userId: string, name: string | undefined): string {
  const colour = PALETTE[createHash('sha256').update(userId).digest()[0]! % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" fill="${colour}"/><text x="64" y="64" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="52" fill="#fff">${initialsOf(name)}</text></svg>`;
}
