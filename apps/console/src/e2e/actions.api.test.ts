import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, screenshot, screenshotFailures, signInOnPage, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

/** A webhook receiver on loopback: what the action's call-webhook block sends. */
interface Received {
  headers: IncomingHttpHeaders;
  /** The body as sent: what the signature covers. */
  text: string;
  body: { triggerName?: string; data?: { documentId?: string; document?: Record<string, unknown> } };
}

let platform: ConsolePlatform;
let receiver: Server;
let hookUrl: string;
const received: Received[] = [];
let owner: Account;
/** A member without the update permission. */
let member: Account;
let projectId: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, text, body: JSON.parse(text) });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`;
  // The SSRF guard refuses loopback unless the actions service's network settings allow it.
  platform = await startConsolePlatform({ allInOne: { env: { ACTIONS_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', ACTIONS_WEBHOOK_SECRET: 'console-e2e-webhook-signing-key' } } });

  owner = await register(platform, 'Grace', 'actions');
  member = await register(platform, 'Member', 'actions');
  projectId = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Order desk' } })).body.id;
  const schema = { type: 'object', properties: { customer: { type: 'string' }, total: { type: 'number' } } };
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner.token, body: { id: 'orders', name: 'orders', schema } })).status).toBe(201);
  const invitation = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: member.id, permissions: [] } });
  expect((await platform.call('POST', `/api/me/invitations/${invitation.body.id}/accept`, { token: member.token })).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

screenshotFailures(() => platform, 'actions');

async function signedIn(account: Account): Promise<Page> {
  const page = await platform.openPage();
  await signInOnPage(page, account.email);
  return page;
}

async function openActions(page: Page): Promise<void> {
  await page.goto(`/console/projects/${projectId}`);
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Actions' }).click();
  await page.getByRole('table', { name: 'Actions' }).waitFor();
}

async function addBlock(page: Page, blockName: string, id: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add block' });
  await form.getByLabel('Block', { exact: true }).selectOption(blockName);
  await form.getByLabel('Block id').fill(id);
  await form.getByRole('button', { name: 'Add block' }).click();
  await page.getByRole('region', { name: `Configuration of ${id}` }).waitFor();
}

/** Draws a connection with the keyboard: the output, then the input. */
async function connect(page: Page, from: string, to: string): Promise<void> {
  await page.getByRole('button', { name: from.replace('.', ' output '), exact: true }).press('Enter');
  await page.getByRole('button', { name: to.replace('.', ' input '), exact: true }).press('Enter');
}

/** Draws a connection with the pointer: pressed on the output, moved, released over the input. */
async function drag(page: Page, output: string, input: string): Promise<void> {
  const from = (await page.getByRole('button', { name: output, exact: true }).boundingBox())!;
  const to = (await page.getByRole('button', { name: input, exact: true }).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

describe('actions in the console', () => {
  it('builds an action only through the editor (documentCreated, conditional-logic, call-webhook) that runs on a new document; its run shows each block', async () => {
    const page = await signedIn(owner);
    await openActions(page);
    await page.getByRole('button', { name: 'New action' }).click();
    await page.getByLabel('Title').fill('Forward big orders');

    const trigger = page.getByRole('form', { name: 'Add trigger' });
    await trigger.getByLabel('Trigger').selectOption('documentCreated');
    await trigger.getByLabel('Of type').fill('orders');
    await trigger.getByRole('button', { name: 'Add trigger' }).click();

    await addBlock(page, 'conditional-logic', 'check');
    const check = page.getByRole('region', { name: 'Configuration of check' });
    await check.getByLabel('path').fill('data.document.total');
    await check.getByLabel('operator').selectOption('greaterThan');
    await check.getByLabel('value').fill('100');

    await addBlock(page, 'call-webhook', 'notify');
    await page.getByRole('region', { name: 'Configuration of notify' }).getByLabel('url').fill(hookUrl);
    await connect(page, 'check.true', 'notify.body');
    expect(await page.getByRole('list', { name: 'Connections' }).getByRole('listitem').allTextContents()).toEqual(['check.true → notify.body' + 'Remove']);
    await screenshot(page, 'actions-01-editor');

    await page.getByRole('button', { name: 'Save action' }).click();
    await page.waitForURL(/\/actions\/[^/]+$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Action: Forward big orders');
    // What the editor saved, read back: exactly the graph drawn.
    const actionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const stored = (await platform.call('GET', `/api/projects/${projectId}/actions/${actionId}`, { token: owner.token })).body;
    expect(stored.triggers).toEqual([{ id: 't1', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }]);
    expect(stored.blocks).toEqual([
      { id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.total', operator: 'greaterThan', value: 100 } },
      { id: 'notify', blockName: 'call-webhook', configuration: { url: hookUrl } },
    ]);
    expect(stored.connections).toEqual([{ sourceBlockId: 'check', sourceSocketName: 'true', targetBlockId: 'notify', targetSocketName: 'body' }]);

    // A new document through the console's documents screen triggers it.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Types' }).click();
    await page.getByRole('link', { name: 'orders' }).click();
    await page.getByRole('button', { name: 'New document' }).click();
    await page.getByLabel('customer', { exact: true }).fill('Analytical Engines Ltd');
    await page.getByLabel('total', { exact: true }).fill('250');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    expect(received[0]!.body.data?.document).toMatchObject({ customer: 'Analytical Engines Ltd', total: 250 });
    expect(received[0]!.headers['x-platform-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);

    await openActions(page);
    await page.getByRole('link', { name: 'Runs of Forward big orders' }).click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return runs.getByRole('row').filter({ hasText: 'succeeded' }).count();
      }, { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByRole('status').filter({ hasText: 'page' }).textContent()).toBe('1 run, page 1 of 1');
    const run = runs.getByRole('row').nth(1);
    const blocks = await run.getByRole('listitem').allTextContents();
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(/^check \(conditional-logic\): succeeded, .* ms \{"result":true\}$/);
    expect(blocks[1]).toMatch(new RegExp(`^notify \\(call-webhook\\): succeeded, .* ms .*"status":200`));
    expect(await run.getByRole('cell').nth(2).textContent()).toMatch(/^\d+(\.\d)? ms$/);
    // When it started, and how long after the order was saved.
    expect(await run.getByRole('cell').nth(0).textContent()).toMatch(/\d+(\.\d)? m?s after the change$/);
    await screenshot(page, 'actions-02-runs');
    // Only the failed runs: none here.
    await page.getByLabel('Status').selectOption('failed');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'page' }).textContent()).toBe('0 failed runs, page 1 of 1');
    expect(await page.getByText('No failed run.').count()).toBe(1);
    await screenshot(page, 'actions-02b-runs-failed-only');
    await page.getByLabel('Status').selectOption('');
    await expect.poll(() => runs.getByRole('row').filter({ hasText: 'succeeded' }).count()).toBe(1);

    // The run links to the document that triggered it.
    const documentId = received[0]!.body.data!.documentId!;
    await run.getByRole('link', { name: `orders/${documentId}` }).click();
    await page.waitForURL(new RegExp(`/types/orders/documents/${documentId}$`));
    await expect.poll(() => page.getByTestId('revision').textContent()).toBe('0');
    expect(platform.pageErrors).toEqual([]);
  }, 120_000);

  it("shows the project's webhook signing key to its updaters only, and a delivery verifies with it", async () => {
    const page = await signedIn(owner);
    await openActions(page);
    await page.getByText('Webhook signing key', { exact: true }).click();
    const key = (await page.getByLabel('Webhook signing key').textContent()) ?? '';
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    await screenshot(page, 'actions-12-webhook-key');
    const delivery = received[0]!;
    const signed = `${delivery.headers['x-platform-timestamp']}.${projectId}.${delivery.text}`;
    expect(delivery.headers['x-platform-project-id']).toBe(projectId);
    expect(delivery.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', key).update(signed).digest('hex')}`);

    const memberPage = await signedIn(member);
    await openActions(memberPage);
    expect(await memberPage.getByText('Webhook signing key', { exact: true }).count()).toBe(0);
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);

  it('refuses an incompatible connection while drawing, with the reason, and keeps none', async () => {
    const page = await signedIn(owner);
    await page.goto(`/console/projects/${projectId}/actions/new`);
    await addBlock(page, 'call-webhook', 'hook');
    await addBlock(page, 'update-database', 'stamp');
    await page.getByRole('button', { name: 'hook output status', exact: true }).press('Enter');
    // While drawing, the graph says which inputs refuse the output and why, before anything is chosen.
    await page.getByRole('button', { name: 'stamp input documentId', exact: true }).focus();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('hook.status (number) cannot feed stamp.documentId (string)');
    await screenshot(page, 'actions-03-drawing');
    await page.getByRole('button', { name: 'stamp input documentId', exact: true }).press('Enter');
    expect(await page.getByRole('alert').textContent()).toBe('Refused: hook.status (number) cannot feed stamp.documentId (string)');
    expect(await page.getByRole('list', { name: 'Connections' }).count()).toBe(0);
    await screenshot(page, 'actions-04-refused');
    // The output stays chosen: a compatible input of the same block takes it.
    await page.getByRole('button', { name: 'stamp input modifier', exact: true }).press('Enter');
    expect(await page.getByRole('list', { name: 'Connections' }).getByRole('listitem').allTextContents()).toEqual(['hook.status → stamp.modifier' + 'Remove']);

    // Dragging with the pointer follows the same rules: refused onto a string input, taken by an object one.
    await drag(page, 'hook output status', 'stamp input documentId');
    expect(await page.getByRole('alert').textContent()).toBe('Refused: hook.status (number) cannot feed stamp.documentId (string)');
    await drag(page, 'hook output response', 'stamp input data');
    expect(await page.getByRole('list', { name: 'Connections' }).getByRole('listitem').allTextContents()).toEqual(['hook.status → stamp.modifier' + 'Remove', 'hook.response → stamp.data' + 'Remove']);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'actions-04b-dragged');
  }, 60_000);

  it("shows the server's validation problems on the block and socket they name, and stores nothing", async () => {
    const page = await signedIn(owner);
    await page.goto(`/console/projects/${projectId}/actions/new`);
    await page.getByLabel('Title').fill('Refused by the server');
    await addBlock(page, 'update-database', 'stamp');
    await addBlock(page, 'call-webhook', 'private');
    await page.getByRole('region', { name: 'Configuration of private' }).getByLabel('url').fill('http://10.0.0.1/hook');

    // First the graph: update-database needs a modifier (configured or connected).
    await page.getByRole('button', { name: 'Save action' }).click();
    const stamp = page.getByRole('region', { name: 'Block stamp' });
    const modifierSocket = stamp.getByRole('list', { name: 'Sockets of stamp' }).getByRole('listitem').filter({ hasText: /^modifier/ });
    await expect.poll(() => modifierSocket.textContent()).toContain('update-database block "stamp" needs "modifier" in its configuration or a connection into its "modifier" socket');
    expect(await page.getByRole('alert').filter({ hasText: 'Not saved' }).textContent()).toContain('Invalid blocks.0.configuration.modifier');
    await screenshot(page, 'actions-05-missing-input');

    // Then, once the graph is sound, the webhook's private address, on its block and beside its url.
    await page.getByRole('button', { name: 'Configure stamp' }).click();
    await page.getByRole('region', { name: 'Configuration of stamp' }).getByLabel('modifier').fill('{"$set":{"reviewed":true}}');
    await page.getByRole('button', { name: 'Save action' }).click();
    const hook = page.getByRole('region', { name: 'Block private' });
    await expect.poll(() => hook.getByRole('list', { name: 'Problems of private' }).textContent()).toContain('10.0.0.1');
    expect(await hook.getByRole('list', { name: 'Problems of private' }).textContent()).toContain('private address');
    expect(await stamp.textContent()).not.toContain('needs');
    await page.getByRole('button', { name: 'Configure private' }).click();
    expect(await page.getByRole('region', { name: 'Configuration of private' }).getByRole('alert').textContent()).toContain('private address');
    await screenshot(page, 'actions-06-address-refused');

    const listed = (await platform.call('GET', `/api/projects/${projectId}/actions`, { token: owner.token })).body.items as Array<{ title: string }>;
    expect(listed.map((action) => action.title)).toEqual(['Forward big orders']);
  }, 60_000);

  it("shows a member without the update permission the server's refusal, not a broken page", async () => {
    const guarded = await platform.call('POST', `/api/projects/${projectId}/actions`, {
      token: owner.token,
      body: { title: 'Editors only', access: { update: { permission: 'editors' } }, triggers: [{ id: 't1', triggerName: 'documentUpdated' }] },
    });
    expect(guarded.status).toBe(201);
    const page = await signedIn(member);
    await openActions(page);
    await page.getByRole('link', { name: 'Editors only', exact: true }).click();
    await page.getByLabel('Title').fill('Renamed by a member');
    await page.getByRole('button', { name: 'Save action' }).click();
    const refusal = (await platform.call('PUT', `/api/projects/${projectId}/actions/${guarded.body.id}`, { token: member.token, body: { title: 'Renamed by a member' } })).body;
    expect(refusal.code).toBe('ACTIONS_FORBIDDEN');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(`Not saved: ${refusal.error}`);
    // The editor stays as it was, and the action is unchanged.
    expect(await page.getByRole('region', { name: 'Trigger t1' }).textContent()).toContain('documentUpdated');
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${guarded.body.id}`, { token: owner.token })).body.title).toBe('Editors only');
    await screenshot(page, 'actions-07-member-refused');
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);

  it('deletes an action after asking, and the list no longer shows it', async () => {
    const page = await signedIn(owner);
    await openActions(page);
    await page.getByRole('link', { name: 'Editors only', exact: true }).click();
    await page.getByRole('button', { name: 'Delete action' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/\/actions$/);
    await expect.poll(() => page.getByRole('table', { name: 'Actions' }).getByRole('link', { name: 'Editors only', exact: true }).count()).toBe(0);
    const listed = (await platform.call('GET', `/api/projects/${projectId}/actions`, { token: owner.token })).body.items as Array<{ title: string }>;
    expect(listed.map((action) => action.title)).toEqual(['Forward big orders']);
  }, 60_000);

  it('runs an action by hand on a document from its runs screen and from the document, for its owner only, and says which document it could not find', async () => {
    const action = await platform.call('POST', `/api/projects/${projectId}/actions`, {
      token: owner.token,
      body: { title: 'Forward by hand', blocks: [{ id: 'forward', blockName: 'call-webhook', configuration: { url: `${hookUrl}?by=hand` } }] },
    });
    expect(action.status).toBe(201);
    const order = await platform.call('POST', `/api/projects/${projectId}/types/orders/data`, { token: owner.token, body: { customer: 'Difference Engines plc', total: 12 } });
    const receivedBefore = received.length;

    const page = await signedIn(owner);
    await page.goto(`/console/projects/${projectId}/actions/${action.body.id}/runs`);
    const form = page.getByRole('form', { name: 'Run on a document' });
    await expect.poll(() => form.getByLabel('Type').inputValue()).toBe('orders');
    // The id field offers the type's documents, each named by its first text (orders have no title field).
    const offered = () => form.locator('datalist option').evaluateAll((options) => options.map((option) => [(option as HTMLOptionElement).value, option.textContent]));
    await expect.poll(offered, { timeout: 15_000 }).toContainEqual([order.body.id, 'Difference Engines plc']);
    await form.getByLabel('Document id').fill('no-such-order');
    await form.getByRole('button', { name: 'Run on this document' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Document not found');
    await screenshot(page, 'actions-08-run-by-hand-not-found');

    await form.getByLabel('Document id').fill(order.body.id);
    await form.getByRole('button', { name: 'Run on this document' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe(`Started on orders/${order.body.id}: the run shows below with each block’s result.`);
    expect(await form.getByRole('alert').count()).toBe(0);
    const runs = page.getByRole('table', { name: 'Runs' });
    await expect.poll(() => runs.getByRole('row').filter({ hasText: 'succeeded' }).count(), { timeout: 15_000 }).toBe(1);
    const run = runs.getByRole('row').nth(1);
    await expect.poll(() => run.getByRole('cell').nth(3).textContent()).toBe(`orders/${order.body.id}documentCreated, run by hand by Grace`);
    expect(await run.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^forward \(call-webhook\): succeeded, .* ms .*"status":200/)]);
    expect(received.length).toBe(receivedBefore + 1);
    expect(received.at(-1)!.body).toMatchObject({ triggerName: 'documentCreated', data: { documentId: order.body.id, document: { customer: 'Difference Engines plc', total: 12 } } });
    await screenshot(page, 'actions-09-run-by-hand');

    // From the document's page: the actions Grace owns, one run now.
    await page.goto(`/console/projects/${projectId}/types/orders/documents/${order.body.id}`);
    const fromDocument = page.getByRole('form', { name: 'Run an action on this document' });
    await expect.poll(() => fromDocument.getByLabel('Action').locator('option').allTextContents()).toContain('Forward by hand');
    await fromDocument.getByLabel('Action').selectOption({ label: 'Forward by hand' });
    await fromDocument.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => fromDocument.getByRole('status').textContent()).toBe('Started Forward by hand: its result shows on its runs.');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(receivedBefore + 2);
    await screenshot(page, 'actions-11-run-from-document');
    await fromDocument.getByRole('link', { name: 'its runs' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ hasText: 'run by hand by Grace' }).count(), { timeout: 15_000 }).toBe(2);

    // A member sees the runs, and why they cannot start one; their document page offers no action (they own none).
    const memberPage = await signedIn(member);
    await memberPage.goto(`/console/projects/${projectId}/actions/${action.body.id}/runs`);
    await expect.poll(() => memberPage.getByText('Only the action’s owner').count()).toBe(1);
    expect(await memberPage.getByRole('form', { name: 'Run on a document' }).count()).toBe(0);
    await screenshot(memberPage, 'actions-10-run-by-hand-member');
    await memberPage.goto(`/console/projects/${projectId}/types/orders/documents/${order.body.id}`);
    await expect.poll(() => memberPage.getByTestId('revision').textContent()).toBe('0');
    expect(await memberPage.getByRole('form', { name: 'Run an action on this document' }).count()).toBe(0);
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);
});
