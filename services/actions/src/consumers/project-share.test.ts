import { describe, expect, it } from 'vitest';
import { ProjectShare } from './project-share';

function shareWithClock() {
  const time = { now: 0 };
  const share = new ProjectShare({ perProject: 2, clock: () => time.now, slowMs: 1_000, rememberMs: 60_000 });
  return { share, time };
}

describe('ProjectShare', () => {
  it('lets a fast project take any number of slots', () => {
    const { share } = shareWithClock();
    const tickets = Array.from({ length: 10 }, () => share.tryEnter('busy'));
    expect(tickets.every((ticket) => ticket !== undefined)).toBe(true);
  });

  it('holds a project to its share once one of its events runs longer than slowMs, and frees it as they finish', () => {
    const { share, time } = shareWithClock();
    const first = share.tryEnter('hanging')!;
    time.now = 500;
    const second = share.tryEnter('hanging')!;
    time.now = 1_001;
    expect(share.tryEnter('hanging')).toBeUndefined();
    // Other projects are not held back.
    expect(share.tryEnter('quiet')).toBeDefined();
    share.leave(second);
    expect(share.tryEnter('hanging')).toBeDefined();
    expect(share.tryEnter('hanging')).toBeUndefined();
    // The slow one finishing frees its slot, and the project stays held to its share.
    share.leave(first);
    expect(share.tryEnter('hanging')).toBeDefined();
    expect(share.tryEnter('hanging')).toBeUndefined();
  });

  it('remembers a slow project for rememberMs after its last slow event, then lets it use every slot again', () => {
    const { share, time } = shareWithClock();
    const slow = share.tryEnter('p')!;
    time.now = 2_000;
    share.leave(slow);
    const a = share.tryEnter('p')!;
    const b = share.tryEnter('p')!;
    expect(share.tryEnter('p')).toBeUndefined();
    share.leave(a);
    share.leave(b);
    time.now = 2_000 + 60_001;
    expect([share.tryEnter('p'), share.tryEnter('p'), share.tryEnter('p')].every((ticket) => ticket !== undefined)).toBe(true);
  });

  it('forgets a finished event by its own start time when several started in the same millisecond', () => {
    const { share, time } = shareWithClock();
    const tickets = [share.tryEnter('p')!, share.tryEnter('p')!, share.tryEnter('p')!];
    share.leave(tickets[1]!);
    share.leave(tickets[0]!);
    time.now = 1_500;
    // One still running since 0: slow, and it alone is below the share of 2.
    expect(share.tryEnter('p')).toBeDefined();
    expect(share.tryEnter('p')).toBeUndefined();
  });
});
