/**
 * The METRICS_PORT of each process of a topology on one host: `first` for the first, the next port
 * for each further one (a Prometheus configuration can then list a known range), or a free port
 * each when `first` is 0. One METRICS_PORT for all would make every process after the first fail
 * to start.
 */
export async function metricsPorts(instanceNames: readonly string[], first: number, pickFree: () => Promise<number>): Promise<Map<string, number>> {
  if (first !== 0 && first + instanceNames.length - 1 > 65535) {
    throw new RangeError(`METRICS_PORT ${first} leaves no room for ${instanceNames.length} processes (ports up to 65535): set a lower one, or 0 for free ports`);
  }
  const ports = new Map<string, number>();
  for (const [index, name] of instanceNames.entries()) ports.set(name, first === 0 ? await pickFree() : first + index);
  return ports;
}
