import { documentsCollection, historyCollection, storeChange } from '@platform/documents';
import { createMongoStore } from '@platform/storage';
import type autocannon from 'autocannon';
import { forEachConcurrently, signedInClient, type ApiClient } from '../api-client';
import { compareLoads, type LoadOptions, type LoadResult } from '../load';
import { insertNewDocuments } from '../mongo-fixtures';
import { formatRow, loadRow, writeSection } from '../report';
import { withMicroservices, withPlatformProcess } from '../shapes';
import { median, percentile } from '../stats';

const CONNECTIONS = 32;
/** Documents the PATCH load spreads over, so each gets a realistic few dozen changes, not thousands. */
export const PATCH_DOCUMENTS = 3_200;
const PULL_DOCUMENTS = 10_000;
const LONG_HISTORY = 10_000;
/** Every fixture document's fields besides its title. */
export const FIXTURE_FIELDS = { status: 'open', count: 0, notes: 'Benchmark fixture with a little text in it.' };
const PULL_ROUNDS = 9;
/** The one-client GET latency comparison: rounds, each reading both documents this many times. */
const LATENCY_ROUNDS = 3;
const LATENCY_REQUESTS = 500;

interface ShapeResult {
  patch: LoadResult;
  /** After the last PATCH round, until the audit trail held every PATCH (undefined: not within AUDIT_WAIT_MS). */
  auditCompleteMs: number | undefined;
  pullP50Ms: number;
  pullP90Ms: number;
  pulledItems: number;
  get: Record<GetTarget, LoadResult>;
  /** One client, one request at a time: each document's median GET latency. */
  getP50Ms: Record<GetTarget, number>;
}

type GetTarget = 'oneChange' | 'longHistory';

/** A project with the benchmark's types, and the signed-in client that owns it. */
interface Fixture {
  client: ApiClient;
  projectPath: string;
  projectId: string;
}

/** Creates `count` documents of a type; answers their ids and revisions. */
type CreateDocuments = (fixture: Fixture, typeId: string, count: number) => Promise<Array<{ id: string; revision: number }>>;

/** Gives the document LONG_HISTORY changes in all; answers once they are in place. */
type GrowHistory = (fixture: Fixture, documentId: string) => Promise<void>;

const createThroughApi: CreateDocuments = ({ client, projectPath }, typeId, count) => createDocuments(client, `${projectPath}/types/${typeId}/data`, count);

/** Straight into MongoDB: the fixture is not what is measured (see insertNewDocuments). */
function insertIntoMongo(mongoUrl: string, database: string): CreateDocuments {
  return async ({ projectId }, typeId, count) => {
    const documents = Array.from({ length: count }, (_, index) => ({
      id: `${typeId}-${index}`,
      title: `Document ${index}`,
      ...FIXTURE_FIELDS,
    }));
    await insertNewDocuments(mongoUrl, database, projectId, typeId, documents);
    return documents.map(({ id }) => ({ id, revision: 0 }));
  };
}

export async function createDocuments(client: ApiClient, path: string, count: number): Promise<Array<{ id: string; revision: number }>> {
  const created: Array<{ id: string; revision: number }> = [];
  const indexes = Array.from({ length: count }, (_, index) => index);
  await forEachConcurrently(indexes, 16, async (index) => {
    const document = await client.call<{ id: string; revision: number }>('POST', path, { title: `Document ${index}`, ...FIXTURE_FIELDS });
    created.push({ id: document.id, revision: document.revision });
  });
  return created;
}

/**
 * Hands every request a document no other request has in flight, with the revision its last
 * answer gave, so no request conflicts with another and every one is a real write: guarded
 * update, history, event. (autocannon resets a connection's context after each pass over its
 * requests, so the documents are handed out from one shared queue of idle ones.) Each of
 * `documents` keeps the revision its last answer gave, so their sum counts the writes made.
 */
export function patchRequests(path: string, documents: Array<{ id: string; revision: number }>): autocannon.Request[] {
  const idle = [...documents];
  return [
    {
      method: 'PATCH',
      setupRequest: (request, context) => {
        const document = idle.shift();
        if (!document) throw new Error('more requests in flight than documents');
        (context as { document?: { id: string; revision: number } }).document = document;
        return { ...request, path: `${path}/${document.id}`, body: JSON.stringify({ modifier: { $inc: { count: 1 }, $set: { status: 'busy' } }, baseRevision: document.revision }) };
      },
      onResponse: (status, body, context) => {
        const document = (context as { document?: { id: string; revision: number } }).document;
        if (!document) return;
        if (status === 200) document.revision = (JSON.parse(body) as { revision: number }).revision;
        else if (status === 409) document.revision = (JSON.parse(body) as { details: { currentRevision: number } }).details.currentRevision;
        idle.push(document);
      },
    },
  ];
}

/** A fresh project with one type of PATCH_DOCUMENTS documents on `baseUrl` (through the API); answers this suite's PATCH load against it. */
export async function patchLoad(baseUrl: string): Promise<LoadOptions> {
  const client = await signedInClient(baseUrl);
  const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'PATCH benchmark' });
  const path = `/api/projects/${project.id}/types/tasks/data`;
  await client.call('POST', `/api/projects/${project.id}/types`, { id: 'tasks', name: 'tasks' });
  const documents = await createDocuments(client, path, PATCH_DOCUMENTS);
  return { url: baseUrl, headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' }, connections: CONNECTIONS, requests: patchRequests(path, documents) };
}

async function pullAll(client: ApiClient, path: string): Promise<number> {
  let items = 0;
  let cursor: string | undefined;
  do {
    const page = await client.call<{ items: unknown[]; cursor?: string }>('GET', `${path}?updatedAt=0${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items += page.items.length;
    cursor = page.cursor;
  } while (cursor);
  return items;
}

/** Through the API: batch RLS makes one change per call and answers only counts. */
const growThroughBatchRls: GrowHistory = async ({ client, projectPath }) => {
  for (let change = 1; change < LONG_HISTORY; change += 1) {
    const action = change % 2 ? 'addUserId' : 'removeUserId';
    await client.call('POST', `${projectPath}/types/long/batch-rls`, { action, operations: ['update'], userId: 'bench-reviewer' });
  }
};

/**
 * Straight into MongoDB, in the data service's own history format: sequential writes on the
 * MongoDB-compatible test server take tens of milliseconds each, and only the reads are measured.
 */
function seedIntoMongo(mongoUrl: string, database: string): GrowHistory {
  return async ({ projectId }, documentId) => {
    const store = await createMongoStore({ url: mongoUrl, database });
    try {
      const collection = documentsCollection(projectId, 'long');
      const records = Array.from({ length: LONG_HISTORY - 1 }, (_, index) => {
        const revision = index + 1;
        const change = storeChange({ revision, userId: 'bench', timestamp: Date.now(), baseRevision: revision - 1, modifier: { $inc: { count: 1 } } });
        return { id: `${documentId}:${revision}`, entityId: documentId, ...change };
      });
      await store.collection(historyCollection(collection)).insertMany(records);
      await store.collection(collection).updateOne({ id: documentId }, { $set: { revision: LONG_HISTORY - 1, count: LONG_HISTORY - 1 } });
    } finally {
      await store.close();
    }
  };
}

async function createFixture(baseUrl: string): Promise<Fixture> {
  const client = await signedInClient(baseUrl);
  const project = await client.call<{ id: string }>('POST', '/api/projects', { name: 'Benchmark' });
  const projectPath = `/api/projects/${project.id}`;
  for (const id of ['tasks', 'pulled', 'long', 'short']) await client.call('POST', `${projectPath}/types`, { id, name: id });
  return { client, projectPath, projectId: project.id };
}

async function measureWrites(baseUrl: string, fixture: Fixture, create: CreateDocuments): Promise<Omit<ShapeResult, 'get' | 'getP50Ms'>> {
  const { client, projectPath } = fixture;
  const auth = { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' };
  const tasksPath = `${projectPath}/types/tasks/data`;
  const patchTargets = await create(fixture, 'tasks', PATCH_DOCUMENTS);
  const [patch] = Object.values(await compareLoads({ patch: { url: baseUrl, headers: auth, connections: CONNECTIONS, requests: patchRequests(tasksPath, patchTargets) } }));
  // Every fixture document starts at revision 0, so the revisions add up to the PATCHes made.
  const auditCompleteMs = await auditTrailCompleteAfter(client, projectPath, patchTargets.reduce((sum, document) => sum + document.revision, 0));

  const pulledPath = `${projectPath}/types/pulled/data`;
  await create(fixture, 'pulled', PULL_DOCUMENTS);
  const pullTimes: number[] = [];
  let pulledItems = 0;
  await pullAll(client, pulledPath);
  for (let round = 0; round < PULL_ROUNDS; round += 1) {
    const started = performance.now();
    pulledItems = await pullAll(client, pulledPath);
    pullTimes.push(performance.now() - started);
    // Every document was stored before the pulls began: a full pull that misses one is a bug.
    if (pulledItems !== PULL_DOCUMENTS) throw new Error(`a full pull returned ${pulledItems} of ${PULL_DOCUMENTS} documents`);
  }
  return { patch: patch!, auditCompleteMs, pullP50Ms: median(pullTimes), pullP90Ms: percentile(pullTimes, 90), pulledItems };
}

/** Longest wait for the audit trail to hold every PATCH of the load. */
const AUDIT_WAIT_MS = 120_000;

/**
 * Milliseconds from now until the project's audit trail holds `updates` updates of the PATCH
 * fixture's type (undefined past AUDIT_WAIT_MS): how far the consumers are behind the writes when
 * the load stops. A throughput that leaves them further behind every second is not sustainable.
 */
async function auditTrailCompleteAfter(client: ApiClient, projectPath: string, updates: number): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < AUDIT_WAIT_MS) {
    const { total } = await client.call<{ total: number }>('GET', `${projectPath}/audit-trail?typeId=tasks&changeType=updated&limit=1`);
    if (total >= updates) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

async function measureLongHistoryReads(baseUrl: string, fixture: Fixture, grow: GrowHistory): Promise<Pick<ShapeResult, 'get' | 'getP50Ms'>> {
  const { client, projectPath } = fixture;
  const auth = { authorization: `Bearer ${client.token}` };
  const [longDocument] = await createDocuments(client, `${projectPath}/types/long/data`, 1);
  await grow(fixture, longDocument!.id);
  const longPath = `${projectPath}/types/long/data/${longDocument!.id}`;
  const grown = await client.call<{ revision: number; access?: unknown; changes: unknown[] }>('GET', `${longPath}?includeChanges=true`);
  if (grown.changes.length !== LONG_HISTORY) throw new Error(`the long document has ${grown.changes.length} changes, not ${LONG_HISTORY}`);
  // The same fields and access as the long document, so the history is the only difference.
  const shortDocument = await client.call<{ id: string }>('POST', `${projectPath}/types/short/data`, { title: 'Document with 1 change', ...FIXTURE_FIELDS, ...(grown.access ? { access: grown.access } : {}) });
  const urls: Record<GetTarget, string> = { oneChange: `${baseUrl}${projectPath}/types/short/data/${shortDocument!.id}`, longHistory: `${baseUrl}${longPath}` };
  const get = (await compareLoads({
    oneChange: { url: urls.oneChange, headers: auth, connections: CONNECTIONS },
    longHistory: { url: urls.longHistory, headers: auth, connections: CONNECTIONS },
  })) as ShapeResult['get'];
  return { get, getP50Ms: await oneClientLatency(urls, auth) };
}

/**
 * Each document's median GET latency with one client asking one request at a time, the
 * documents taking turns round by round: a latency without the queue that 32 connections build in
 * front of the server, timed to the microsecond (autocannon's latencies are whole milliseconds,
 * too coarse for a ratio of 4 ms figures).
 */
async function oneClientLatency(urls: Record<GetTarget, string>, headers: Record<string, string>): Promise<Record<GetTarget, number>> {
  const times: Record<GetTarget, number[]> = { oneChange: [], longHistory: [] };
  for (let round = 0; round < LATENCY_ROUNDS; round += 1) {
    for (const target of ['oneChange', 'longHistory'] as const) {
      for (let request = 0; request < LATENCY_REQUESTS; request += 1) {
        const started = performance.now();
        const response = await fetch(urls[target], { headers });
        await response.text();
        if (!response.ok) throw new Error(`GET ${urls[target]} answered ${response.status}`);
        times[target].push(performance.now() - started);
      }
    }
  }
  return { oneChange: median(times.oneChange), longHistory: median(times.longHistory) };
}

function rows(shape: string, result: ShapeResult): string[] {
  return [
    loadRow(shape, `PATCH, ${PATCH_DOCUMENTS.toLocaleString('en-US')} documents`, result.patch),
    loadRow(shape, 'GET document with 1 change', result.get.oneChange),
    loadRow(shape, `GET document with ${LONG_HISTORY.toLocaleString('en-US')} changes`, result.get.longHistory),
  ];
}

function ratios(shape: string, result: ShapeResult): string {
  const latency = result.getP50Ms.longHistory / result.getP50Ms.oneChange;
  const throughput = result.get.oneChange.requestsPerSecond / result.get.longHistory.requestsPerSecond;
  const p50s = `${result.getP50Ms.oneChange.toFixed(2)} / ${result.getP50Ms.longHistory.toFixed(2)}`;
  const auditComplete = result.auditCompleteMs === undefined ? `> ${AUDIT_WAIT_MS.toLocaleString('en-US')}` : Math.round(result.auditCompleteMs);
  return formatRow([shape, Math.round(result.patch.requestsPerSecond), result.patch.p99Ms, auditComplete, Math.round(result.pullP50Ms), Math.round(result.pullP90Ms), result.pulledItems, `${throughput.toFixed(2)}x`, p50s, `${latency.toFixed(2)}x`]);
}

/**
 * Data service (issue 4): PATCH throughput with history and event publish, a full pull of 10,000
 * changed documents (every page), and reads of a document with a long history against a fresh one.
 */
export async function dataDocuments(): Promise<void> {
  const writes = await withPlatformProcess({ SERVICES: 'all' }, async (allInOne) => measureWrites(allInOne.url, await createFixture(allInOne.url), createThroughApi));
  // Reads of a long history in a process without the audit consumer: batch RLS changes access
  // every time, and the audit trail rewrites the access of every earlier item of the entity on
  // each such change, which is not what this figure is about.
  const nowhere = 'http://127.0.0.1:9';
  const reads = await withPlatformProcess({ SERVICES: 'gateway,identity,data', AUDIT_URL: nowhere, PUBLISHING_URL: nowhere, ACTIONS_URL: nowhere, VISITORS_URL: nowhere }, async (dataOnly) =>
    measureLongHistoryReads(dataOnly.url, await createFixture(dataOnly.url), growThroughBatchRls),
  );
  const single: ShapeResult = { ...writes, ...reads };

  const micro = await withMicroservices({}, async ({ gatewayUrl, backendUrls, database }): Promise<ShapeResult> => {
    const fixture = await createFixture(gatewayUrl);
    const microWrites = await measureWrites(gatewayUrl, fixture, insertIntoMongo(backendUrls.mongo, database));
    return { ...microWrites, ...(await measureLongHistoryReads(gatewayUrl, fixture, seedIntoMongo(backendUrls.mongo, database))) };
  });

  await writeSection(
    'data-documents',
    `## Documents: writes, pull and long histories (issue 4)

Command: \`pnpm bench data-documents\`. ${CONNECTIONS} connections. PATCH: each request takes a
document no other request has in flight, from ${PATCH_DOCUMENTS.toLocaleString('en-US')}, with the
revision its previous answer gave (no conflicts; each request is a guarded update, a history record and an
event, and answers the document with all its changes, as the spec requires); then the time until
the audit trail holds every PATCH, polled through its API: the consumers' lag when the load stops,
which must stay small for the throughput to be one the shape can keep up. Pull: every page of
\`GET ...?updatedAt=0\` over ${PULL_DOCUMENTS.toLocaleString('en-US')} documents, one client, ${PULL_ROUNDS} rounds.
Long history: one document with ${LONG_HISTORY.toLocaleString('en-US')} changes, read with plain GET (no
\`includeChanges\`) against a document with one change; all-in-one builds it through batch RLS
in a process hosting gateway, identity and data only (the audit consumer rewrites earlier items'
access on every access change, which would dominate), microservices seeds it into MongoDB in the
data service's history format; throughput at ${CONNECTIONS} connections, and latency with one client
(${LATENCY_ROUNDS} rounds of ${LATENCY_REQUESTS} sequential GETs per document, the documents taking turns),
timed to the microsecond. Microservices also insert the PATCH and pull fixtures straight
into MongoDB as the data service stores new documents: a FerretDB stand-in takes
tens of milliseconds per sequential write and stalls under concurrent ones. Microservices:
gateway, data and the other services as separate processes on the MongoDB stand-in named
below, NATS and Redis, all sharing the same 2 cores with the load generator.

| shape | target | req/s | p50 ms | p99 ms | non-2xx + errors |
|---|---|---|---|---|---|
${rows('all-in-one', single).join('\n')}
${rows('microservices', micro).join('\n')}

| shape | PATCH req/s (target ≥ 2,000 all-in-one) | PATCH p99 ms | audit trail complete, ms after the load | pull 10,000 p50 ms (target < 250) | pull p90 ms | items pulled | GET 1-change / 10,000-change throughput | GET p50 ms one client, 1 / 10,000 changes | GET p50 10,000 / 1 (target < 1.2) |
|---|---|---|---|---|---|---|---|---|---|
${ratios('all-in-one', single)}
${ratios('microservices', micro)}`,
  );
  console.log(`data documents: PATCH ${Math.round(single.patch.requestsPerSecond)}/s all-in-one, pull p50 ${Math.round(single.pullP50Ms)} ms`);
}
