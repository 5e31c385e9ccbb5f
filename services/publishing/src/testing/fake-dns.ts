import type { ResolveTxt } from '../verification/dns-txt-verifier';
import { gate, type Gate } from './gate';

function dnsError(code: string, name: string): Error {
  return Object.assign(new Error(`queryTxt ${code} ${name}`), { code });
}

/**
 * TXT records a test publishes, answered like node:dns `resolveTxt` (ENOTFOUND for a name with
 * none, ESERVFAIL for a name set to fail), so verification runs its real checks without a network.
 */
export class FakeDns {
  private readonly records = new Map<string, string[][]>();
  private readonly failing = new Set<string>();
  /** Runs during the next lookup, before it answers (to change things while a check is in flight). */
  private duringNextLookup: (() => Promise<void>) | undefined;
  /** Lookups held until as many have started as `holdLookups` asked for. */
  private held: { missing: number; allStarted: Gate } | undefined;

  readonly resolveTxt: ResolveTxt = async (name) => {
    const during = this.duringNextLookup;
    this.duringNextLookup = undefined;
    await during?.();
    await this.waitForHeld();
    if (this.failing.has(name)) throw dnsError('ESERVFAIL', name);
    const found = this.records.get(name);
    if (!found) throw dnsError('ENOTFOUND', name);
    return found;
  };

  /** Adds a TXT record; a value given as several strings is one record split like long DNS values. */
  publish(name: string, ...strings: string[]): void {
    this.records.set(name, [...(this.records.get(name) ?? []), strings]);
  }

  fail(name: string): void {
    this.failing.add(name);
  }

  onNextLookup(action: () => Promise<void>): void {
    this.duringNextLookup = action;
  }

  /** Holds the next `count` lookups until all of them have started, so concurrent requests all pass the reads before them before any answers. */
  holdLookups(count: number): void {
    this.held = { missing: count, allStarted: gate() };
  }

  private async waitForHeld(): Promise<void> {
    const held = this.held;
    if (!held) return;
    held.missing -= 1;
    if (held.missing === 0) {
      this.held = undefined;
      held.allStarted.open();
    }
    await held.allStarted.opened;
  }
}
