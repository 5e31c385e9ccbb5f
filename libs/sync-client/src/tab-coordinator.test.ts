import { afterEach, describe, expect, it } from 'vitest';
import { TabCoordinator, type TabChannel, type TabStoreChange } from './tab-coordinator';
import { sharedTabLocks } from './testing/tab-locks';

/** Node's BroadcastChannel, with every message a tab posts counted. */
function countingChannels() {
  const posted: unknown[] = [];
  const openChannel = (name: string): TabChannel => {
    const channel = new BroadcastChannel(name);
    return {
      postMessage: (message) => {
        posted.push(message);
        channel.postMessage(message);
      },
      addEventListener: (type, listener) => channel.addEventListener(type, listener as unknown as (event: Event) => void),
      close: () => channel.close(),
    };
  };
  return { posted, openChannel };
}

const open: TabCoordinator[] = [];
afterEach(() => {
  for (const tab of open.splice(0)) tab.close();
});

function tabs(name: string) {
  const locks = sharedTabLocks();
  const { posted, openChannel } = countingChannels();
  const writer = new TabCoordinator(name, { locks, openChannel });
  const reader = new TabCoordinator(name, { locks, openChannel });
  open.push(writer, reader);
  const heard: TabStoreChange[] = [];
  reader.listen((change) => heard.push(change));
  return { writer, posted, heard };
}

describe('tab announcements', () => {
  it('sends the changes announced in one task as one message, heard one by one in their order', async () => {
    const { writer, posted, heard } = tabs(`announce-${Date.now()}`);
    for (let index = 0; index < 1_000; index += 1) writer.announce({ storeName: 'entities:notes', key: `n${index}` });
    writer.announce({ storeName: 'meta' });
    await expect.poll(() => heard.length).toBe(1_001);
    expect(posted).toHaveLength(1);
    expect(heard[0]).toEqual({ storeName: 'entities:notes', key: 'n0' });
    expect(heard[999]).toEqual({ storeName: 'entities:notes', key: 'n999' });
    expect(heard[1_000]).toEqual({ storeName: 'meta' });

    writer.announce({ storeName: 'entities:notes', key: 'later' });
    await expect.poll(() => heard.length).toBe(1_002);
    expect(posted).toHaveLength(2);
  });

  it('still sends what was announced when the tab closes in the same task, and nothing after', async () => {
    const { writer, posted, heard } = tabs(`close-${Date.now()}`);
    writer.announce({ storeName: 'entities:notes', key: 'last' });
    writer.close();
    writer.announce({ storeName: 'entities:notes', key: 'after close' });
    await expect.poll(() => heard).toEqual([{ storeName: 'entities:notes', key: 'last' }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posted).toHaveLength(1);
    expect(heard).toHaveLength(1);
  });

  it('ignores a message that is not a list of store changes', async () => {
    const name = `malformed-${Date.now()}`;
    const { heard } = tabs(name);
    const stranger = new BroadcastChannel(name);
    stranger.postMessage({ storeName: 'entities:notes', key: 'not in a list' });
    stranger.postMessage([{ storeName: 42 }]);
    stranger.postMessage([{ storeName: 'entities:notes', key: 'listed' }]);
    await expect.poll(() => heard).toEqual([{ storeName: 'entities:notes', key: 'listed' }]);
    stranger.close();
  });
});
