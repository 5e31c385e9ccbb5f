import { FileStore } from '../file-store.js';
import { SyncClient } from '../index.js';

/**
 * A to-do list kept in ./.todo-sync and synced with a running platform:
 *   PLATFORM_URL=http://127.0.0.1:3000 PLATFORM_TOKEN=... PROJECT_ID=... TYPE_ID=todos \
 *   pnpm exec tsx libs/sync-client/src/examples/todo-cli.ts [list | add <title> | done <id> | rm <id> | watch]
 * PLATFORM_TOKEN is a personal access token (the console's Account screen) or a session's token.
 * Works offline: changes wait in the local store and are pushed by the next run that reaches the server.
 */
async function main(): Promise<void> {
  const env = (name: string) => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
  const typeId = process.env.TYPE_ID ?? 'todos';
  const client = new SyncClient({
    baseUrl: process.env.PLATFORM_URL ?? 'http://127.0.0.1:3000',
    token: env('PLATFORM_TOKEN'),
    projectId: env('PROJECT_ID'),
    collections: [{ typeId, realtime: true }],
    store: await FileStore.open(process.env.TODO_DIR ?? './.todo-sync'),
  });
  const todos = client.collection(typeId);
  const [command = 'list', argument = ''] = process.argv.slice(2);
  const print = () => {
    for (const todo of todos.list()) console.log(`${todo.done ? '[x]' : '[ ]'} ${todo.title}  (${todo.id}, ${todos.state(todo.id)})`);
  };
  await client.open();
  if (command === 'add') await todos.insert({ title: argument, done: false });
  if (command === 'done') await todos.update(argument, { done: true });
  if (command === 'rm') await todos.remove(argument);
  await client.sync().catch((error: Error) => console.error(`offline, changes kept locally: ${error.message}`));
  for (const conflicted of todos.list().filter((todo) => todos.state(todo.id) === 'conflict')) {
    console.log(`conflict on ${conflicted.id}, keeping mine`);
    await todos.keepMine(conflicted.id);
  }
  if (command !== 'watch') {
    await client.sync().catch(() => undefined);
    print();
    return client.close();
  }
  client.on('change', print);
  client.on('realtime', ({ status }) => console.log(`realtime: ${status}`));
  await client.start();
  print();
  process.on('SIGINT', () => void client.close().then(() => process.exit(0)));
}

void main();
