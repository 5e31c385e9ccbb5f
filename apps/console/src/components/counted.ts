/** A count with its noun, singular for one: "1 run", "0 runs", "2 changes". */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
