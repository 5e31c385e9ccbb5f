import { describe, expect, it } from 'vitest';
import { NetworkError, UnauthorizedError } from './http';
import { joinUnderWay } from './join-under-way';

describe('joining a push or pull under way', () => {
  it('answers the one under way when it succeeds, without another attempt', async () => {
    let attempts = 0;
    await expect(joinUnderWay(Promise.resolve('pulled'), async () => `attempt ${++attempts}`)).resolves.toBe('pulled');
    expect(attempts).toBe(0);
  });

  it('makes an attempt of its own when the one under way could not reach the server', async () => {
    const underWay = Promise.reject(new NetworkError(new Error('socket reset')));
    await expect(joinUnderWay(underWay, async () => 'pushed now')).resolves.toBe('pushed now');
  });

  it('passes on any other failure as it is, without another attempt', async () => {
    let attempts = 0;
    const refused = new UnauthorizedError('AUTH_SESSION_EXPIRED');
    await expect(joinUnderWay(Promise.reject(refused), async () => `attempt ${++attempts}`)).rejects.toBe(refused);
    expect(attempts).toBe(0);
  });
});
