/**
 * The types as the trail's rows name them (their names), with the id beside a name that does not
 * tell one type from another (shared by several, or blank).
 */
export function typeOptions(types: ReadonlyArray<{ id: string; name?: string }>): Array<{ id: string; label: string }> {
  const named = types.map((type) => ({ id: type.id, name: type.name?.trim() ?? '' }));
  const uses = new Map<string, number>();
  for (const { name } of named) uses.set(name, (uses.get(name) ?? 0) + 1);
  return named.map(({ id, name }) => ({ id, label: name === '' ? id : uses.get(name) === 1 || name === id ? name : `${name} (${id})` }));
}
