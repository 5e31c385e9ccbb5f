import type { DependencyState } from '@platform/contracts';

type Probe = () => Promise<boolean>;

/**
 * Probes dependencies in the background and keeps the latest answers, so a health request reads
 * a snapshot and never touches a backend itself (it stays fast under load and during outages).
 */
export class HealthMonitor {
  private readonly probes = new Map<string, { probe: Probe; kind?: string }>();
  private readonly states = new Map<string, DependencyState>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs = 2_000,
    private readonly probeTimeoutMs = 1_500,
  ) {}

  register(name: string, probe: Probe, kind?: string): void {
    this.probes.set(name, { probe, kind });
  }

  /** Probes once right away (so the first snapshot is real), then on every interval. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    await Promise.all(
      [...this.probes].map(async ([name, { probe, kind }]) => {
        const up = await this.withTimeout(probe);
        this.states.set(name, { up, ...(kind ? { kind } : {}), checkedAt: Date.now() });
      }),
    );
  }

  snapshot(): Record<string, DependencyState> {
    return Object.fromEntries(this.states);
  }

  /** One probe's latest state, without copying the others (health routes answer probes all the time). */
  state(name: string): DependencyState | undefined {
    return this.states.get(name);
  }

  /** Whether every probe answered up last time, without building a snapshot. */
  allUp(): boolean {
    for (const state of this.states.values()) if (!state.up) return false;
    return true;
  }

  private async withTimeout(probe: Probe): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.probeTimeoutMs);
    });
    try {
      return await Promise.race([probe().catch(() => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
