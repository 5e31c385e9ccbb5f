import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, register, screenshot, screenshotFailures, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;
let owner: Account;

beforeAll(async () => {
  platform = await startConsolePlatform();
  owner = await register(platform, 'Tess', 'types');
}, 180_000);

afterAll(async () => {
  await platform?.close();
});

screenshotFailures(() => platform, 'types');

const ordersSchema = { type: 'object', properties: { customer: { type: 'string' } } };

describe('types in the console', () => {
  it('an owner renames a type and changes its schema, is refused a bad one beside the field, deletes the type, restores it with its documents and adds sample documents', async () => {
    const projectId = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Shop' } })).body.id as string;
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner.token, body: { id: 'orders', name: 'orders', schema: ordersSchema } })).status).toBe(201);
    expect((await platform.call('POST', `/api/projects/${projectId}/types/orders/data`, { token: owner.token, body: { id: 'o1', customer: 'Ada' } })).status).toBe(201);
    const type = () => platform.call('GET', `/api/projects/${projectId}/types/orders`, { token: owner.token });

    const page = await platform.openPage({ token: owner.token });
    await page.goto(`/console/projects/${encodeURIComponent(projectId)}`);
    await page.getByRole('button', { name: 'Edit orders' }).click();
    const form = page.getByRole('form', { name: 'Edit orders' });
    expect(JSON.parse(await form.getByLabel(/^Schema/).inputValue())).toEqual(ordersSchema);

    // Not JSON, then a schema the server refuses: each beside the schema, nothing changed.
    await form.getByLabel(/^Schema/).fill('{ "type": ');
    await form.getByRole('button', { name: 'Save type' }).click();
    await poll(() => form.getByRole('alert').textContent()).toMatch(/^Not JSON: /);
    await form.getByLabel(/^Schema/).fill(JSON.stringify({ type: 'object', properties: { customer: { type: 'string', pattern: '(' } } }));
    await form.getByRole('button', { name: 'Save type' }).click();
    await poll(() => form.getByRole('alert').textContent()).toContain('schema.properties.customer.pattern');
    expect(await form.getByLabel(/^Schema/).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'types-01-schema-refused');
    expect((await type()).body).toMatchObject({ revision: 0, schema: ordersSchema });

    const required = { ...ordersSchema, required: ['customer'] };
    await form.getByLabel('Name').fill('Orders');
    await form.getByLabel(/^Schema/).fill(JSON.stringify(required));
    await form.getByRole('button', { name: 'Save type' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Saved the type orders.');
    const rows = page.getByRole('table', { name: 'Types', exact: true }).getByRole('row');
    await poll(() => rows.nth(1).getByRole('cell').nth(1).textContent()).toBe('Orders');
    // The declarations a TypeScript client is written against, as the browser downloads them (the session's cookie).
    const declarations = await page.request.get((await page.getByRole('link', { name: 'TypeScript declarations' }).getAttribute('href'))!);
    expect(await declarations.text()).toMatch(/customer: string/);
    expect((await type()).body).toMatchObject({ revision: 1, name: 'Orders', schema: required });
    // The new schema holds from the next write.
    expect((await platform.call('POST', `/api/projects/${projectId}/types/orders/data`, { token: owner.token, body: { total: 3 } })).body.code).toBe('DATA_SCHEMA_VIOLATION');

    // A schema emptied: the type has none from then on.
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner.token, body: { id: 'notes', name: 'Notes', schema: ordersSchema } })).status).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: 'Edit notes' }).click();
    await page.getByRole('form', { name: 'Edit notes' }).getByLabel(/^Schema/).fill('');
    await page.getByRole('form', { name: 'Edit notes' }).getByRole('button', { name: 'Save type' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Saved the type notes.');
    expect((await platform.call('GET', `/api/projects/${projectId}/types/notes`, { token: owner.token })).body).not.toHaveProperty('schema');
    expect((await platform.call('DELETE', `/api/projects/${projectId}/types/notes`, { token: owner.token })).status).toBe(200);
    await page.reload();

    // Deleted after asking: its documents are hidden; restored from the deleted types, they are back.
    await page.getByRole('button', { name: 'Edit orders' }).click();
    await page.getByRole('button', { name: 'Delete type' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('Deleted the type orders');
    await poll(() => page.getByRole('main').textContent()).toContain('No type in use: create one, or restore a deleted one below.');
    expect((await platform.call('GET', `/api/projects/${projectId}/types/orders/data/o1`, { token: owner.token })).status).toBe(404);
    await page.getByRole('checkbox', { name: /Show deleted types \(2\)/ }).check();
    await screenshot(page, 'types-02-deleted');
    await page.getByRole('table', { name: 'Deleted types' }).getByRole('button', { name: 'Restore orders' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Restored the type orders with its documents.');
    await poll(() => rows.count()).toBe(2);
    expect(await page.getByRole('table', { name: 'Deleted types' }).getByRole('row').allTextContents()).toEqual([expect.stringMatching(/^Type/), expect.stringMatching(/^notes/)]);
    expect((await platform.call('GET', `/api/projects/${projectId}/types/orders/data/o1`, { token: owner.token })).body.customer).toBe('Ada');
    await screenshot(page, 'types-03-restored');

    // A first look at the type's grid: sample documents made up from its schema.
    await rows.nth(1).getByRole('link', { name: 'orders' }).click();
    const grid = page.getByRole('table', { name: 'Documents of orders' });
    await poll(() => grid.getAttribute('aria-rowcount')).toBe('2');
    await page.getByRole('button', { name: 'Add sample documents' }).click();
    const samples = page.getByRole('form', { name: 'Add sample documents' });
    await samples.getByLabel(/^How many/).fill('500');
    await samples.getByRole('button', { name: 'Add them' }).click();
    await poll(() => samples.getByRole('alert').textContent()).toMatch(/100/);
    expect((await platform.call('GET', `/api/projects/${projectId}/types/orders/data?updatedAt=0`, { token: owner.token })).body.items).toHaveLength(1);
    await samples.getByLabel(/^How many/).fill('3');
    await samples.getByRole('button', { name: 'Add them' }).click();
    await poll(() => page.getByText('Added 3 sample documents').count()).toBe(1);
    await poll(() => grid.getAttribute('aria-rowcount')).toBe('5');
    const stored = (await platform.call('GET', `/api/projects/${projectId}/types/orders/data?updatedAt=0`, { token: owner.token })).body.items as Array<{ customer?: unknown }>;
    expect(stored.filter((document) => typeof document.customer === 'string')).toHaveLength(4);
    await screenshot(page, 'types-04-sample-documents');
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);
});
