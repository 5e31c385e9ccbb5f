import type { UpdateModifier } from '@platform/storage';
import { touchedPaths } from './modifier-rules';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Whether a (not yet checked) modifier changes only `access` and paths below it: the one change a
 * deleted entity still takes, so its owner can restrict who reads what it keeps. Anything not
 * shaped like a modifier answers false; the general modifier rules judge the rest afterwards.
 */
export function changesOnlyAccess(modifier: unknown): boolean {
  if (!isObject(modifier)) return false;
  const operators = Object.values(modifier);
  if (operators.length === 0 || !operators.every(isObject)) return false;
  const paths = touchedPaths(modifier as UpdateModifier);
  return paths.length > 0 && paths.every((path) => path.split('.')[0] === 'access');
}
