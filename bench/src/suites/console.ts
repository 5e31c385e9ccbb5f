import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sessionCookieName } from '@platform/contracts';
import { chromium, type Browser } from 'playwright-core';
import { forEachConcurrently, signedInClient, type ApiClient } from '../api-client';
import { runsImageBuild } from '../image-build';
import { repositoryRoot } from '../processes';
import { formatRow, writeSection } from '../report';
import { withPlatformProcess } from '../shapes';
import { percentile } from '../stats';

const DIST = join(repositoryRoot, 'apps/console/dist');
const DOCUMENTS = 10_000;
const CHANGES = 40;

/** Gzipped bytes of the JavaScript index.html loads before anything else (entry and modulepreloads). */
async function initialJavaScriptGzipped(): Promise<number> {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\/console\/([^"]+\.js)"/g)].map((match) => match[1]!);
  let total = 0;
  for (const script of scripts) total += gzipSync(await readFile(join(DIST, script))).length;
  return total;
}

async function withSession(browser: Browser, baseUrl: string, client: ApiClient) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1400, height: 900 } });
  // The image runs with NODE_ENV=production, where the cookie is Secure and `__Host-` (Chromium sends it to http://127.0.0.1).
  const secure = runsImageBuild();
  await context.addCookies([{ name: sessionCookieName(secure), value: client.token, url: baseUrl, secure }]);
  return context;
}

/** Milliseconds from navigation start until the grid says it holds `count` documents (Performance API). */
async function gridReadyMs(page: import('playwright-core').Page, path: string, count: number): Promise<number> {
  await page.goto(path);
  await page.waitForFunction((text) => document.body.textContent?.includes(text), `${count} documents`, { timeout: 120_000, polling: 'raf' });
  return page.evaluate(() => performance.now());
}

async function measure(baseUrl: string) {
  const client = await signedInClient(baseUrl);
  const { id: projectId } = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Console bench' });
  await client.call('POST', `/api/projects/${projectId}/types`, { id: 'rows', name: 'rows', schema: { type: 'object', properties: { title: { type: 'string', maxLength: 12 } } } });
  await forEachConcurrently(Array.from({ length: DOCUMENTS / 100 }, (_, seed) => seed), 4, async (seed) => void (await client.call('POST', `/api/projects/${projectId}/types/rows/sample-data`, { count: 100, seed })));

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const grid = `/console/projects/${projectId}/types/rows`;
    const context = await withSession(browser, baseUrl, client);
    const page = await context.newPage();
    const firstVisit = await gridReadyMs(page, grid, DOCUMENTS);
    const reload = await gridReadyMs(page, grid, DOCUMENTS);

    // Two open consoles: a save in the first is timed until the second's grid shows it (a type of
    // one document, so its row is always in the grid's visible window).
    await client.call('POST', `/api/projects/${projectId}/types`, { id: 'live', name: 'live', schema: { type: 'object', properties: { title: { type: 'string' } } } });
    const { id } = await client.call<{ id: string }>('POST', `/api/projects/${projectId}/types/live/data`, { title: 'live-0' });
    const watcher = await (await withSession(browser, baseUrl, client)).newPage();
    await gridReadyMs(watcher, `/console/projects/${projectId}/types/live`, 1);
    await page.goto(`/console/projects/${projectId}/types/live/documents/${id}`);
    const latencies: number[] = [];
    for (let change = 1; change <= CHANGES; change += 1) {
      const title = `live-${change}`;
      await page.getByLabel('title', { exact: true }).fill(title);
      const saved = Date.now();
      await page.getByRole('button', { name: 'Save' }).click();
      await watcher.waitForFunction((text) => document.body.textContent?.includes(text), title, { timeout: 30_000, polling: 'raf' });
      latencies.push(Date.now() - saved);
      await page.getByTestId('revision').filter({ hasText: String(change) }).waitFor();
    }
    return { firstVisit, reload, latencies };
  } finally {
    await browser.close();
  }
}

/** Issue 22's budgets: initial JavaScript, the 10,000-document grid, and one console's change seen in another. */
export async function consoleBudgets(): Promise<void> {
  const initial = await initialJavaScriptGzipped();
  const { firstVisit, reload, latencies } = await withPlatformProcess({ SERVICES: 'all' }, (platform) => measure(platform.url));
  const kilobytes = (bytes: number) => Math.round(bytes / 102.4) / 10;
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  // The machine is shared: the figures mean little without the load they were taken under.
  const load = loadavg()[0]!.toFixed(1);
  await writeSection(
    'console',
    `## Web console (issue 22)

Command: \`pnpm bench console\` (needs Debian's \`chromium\` and a console build, which \`pnpm
install\` makes). The all-in-one process on the embedded store; Chromium headless on the same 2
cores. The grid figure is \`performance.now()\` (from navigation start) when the grid first reports
10,000 documents: on a first visit that includes pulling them and writing them to IndexedDB; on a
reload they come from IndexedDB and the pull only asks what changed. Change latency: the first
console saves the document (sync SDK push), the second console's grid shows the new value
(realtime notification, pull, render); ${CHANGES} changes in sequence. Load average (1 min) at the
end of the run: ${load} (the budgets are for an idle machine).

| measure | value | budget |
|---|---|---|
${formatRow(['initial JavaScript, gzipped', `${kilobytes(initial)} kB`, '≤ 250 kB'])}
${formatRow(['grid of 10,000 documents, first visit', `${Math.round(firstVisit)} ms`, '≤ 1,500 ms'])}
${formatRow(['grid of 10,000 documents, reload', `${Math.round(reload)} ms`, '≤ 1,500 ms'])}
${formatRow(['change seen in another console, p50', `${Math.round(p50)} ms`, ''])}
${formatRow(['change seen in another console, p95', `${Math.round(p95)} ms`, '≤ 1,000 ms'])}`,
  );
  console.log(`console: ${kilobytes(initial)} kB initial JS, grid ${Math.round(firstVisit)} ms first / ${Math.round(reload)} ms reload, change p95 ${Math.round(p95)} ms, load ${load}`);
}
