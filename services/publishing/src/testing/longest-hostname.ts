/** A hostname of 253 characters, the most DNS allows (four labels, each at most 63), starting with `first` (at most 63 characters). */
export function longestHostname(first: string): string {
  const label = (start: string, length: number) => start + 'a'.repeat(length - start.length);
  return [label(first, 63), label('b', 63), label('c', 63), label('d', 57), 'com'].join('.');
}
