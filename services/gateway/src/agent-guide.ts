/**
 * The part of `/llm.txt` an agent needs before its first call: how to sign in, how a client keeps
 * an offline copy in sync, and where the guides are. Written here, beside the routes it names;
 * the widget part is generated from the registry (@platform/widgets).
 */
export const agentGuideSections: readonly string[] = [
  '## Sign in',
  '',
  '- Create an account with `POST /api/auth/register` `{ "email", "password" (8 or more characters), "displayName"? }`, or sign in with `POST /api/auth/login` `{ "email", "password" }`. Both answer `{ user, token, expiresAt }` and set the `session` cookie.',
  '- Send `Authorization: Bearer <token>` (or the cookie) on every other request. A session lasts 30 days; `POST /api/auth/logout` ends it. 401 means no session or an ended one: sign in again.',
  '- `GET /api/me` answers the signed-in user; `GET /api/projects` their projects, `POST /api/projects` `{ "name" }` creates one.',
  '- A program that runs on its own takes an access token instead of a password: signed in, `POST /api/me/tokens` `{ "name", "expiresInDays"?, "access"?: "read", "projects"?: [projectId, ...] }` answers it once (`pat_...`, sent as a bearer like a session). `access: read` refuses every change (403 `GATEWAY_TOKEN_READ_ONLY`); `projects` refuses everything outside them (403 `GATEWAY_TOKEN_PROJECT_SCOPED`).',
  '- Errors are JSON `{ error, code, details? }`; a 400 names the failing field. 429 `GATEWAY_RATE_LIMITED` (where the operator set a limit) or `AI_RATE_LIMITED` (an hourly budget of AI calls), and `REALTIME_TOO_MANY_STREAMS_*` (too many notification streams open: close one): wait the `Retry-After` seconds, then send it again.',
  '',
  '## Sync',
  '',
  '- Documents live at `/api/projects/{projectId}/types/{typeId}/data`. Create with `POST` (you may choose the `id`, so a retried create answers 409 `DATA_DUPLICATE_ID` instead of a duplicate); change with `PATCH .../data/{id}` `{ "modifier": { "$set": {...} }, "baseRevision" }`: 409 `DATA_REVISION_CONFLICT` when someone changed it since `baseRevision`, with `details.current` (the server document, to take or to re-apply your change on at `details.currentRevision`); `DELETE .../data/{id}` soft-deletes.',
  '- Pull changes with `GET .../data?updatedAt=<largest updatedAt you hold>`, following `cursor` until an answer has none. A deleted document comes back as a tombstone `{ id, revision, createdAt, updatedAt, deletedAt }`: drop your copy. Keep each answer\'s `standing`: when a pull answers another one, your permissions changed, so pull again from `updatedAt=0` and ask `.../readable` about your copies.',
  '- Notifications: `GET /api/realtime/token`, then open `GET /api/realtime/projects/{projectId}/sync?token=<token>` (Server-Sent Events). A `sync` event names an entity and its revision, never its content: pull to get it. `access-changed` means ask `POST .../data/readable` `{ "ids": [...] }` which of your copies you may still read. 503 from the token route: poll every few seconds instead.',
  '- The TypeScript client `@platform/sync-client` (libs/sync-client in the repository; its guide: [sync-client.md](/docs/sync-client.md)) does all of this: offline queue, conflicts, realtime with a polling fallback.',
  '',
  '## Guides',
  '',
  '- [HTTP API](/api/openapi.json): the OpenAPI document of every route, browsable at [/api/docs](/api/docs).',
  "- The repository's `docs/` directory, served at `/docs/{name}.md` as Markdown text: [interface.md](/docs/interface.md) (every endpoint and the rules that hold everywhere), [identity.md](/docs/identity.md) (accounts, sessions, projects, members), [sync.md](/docs/sync.md) (realtime notifications and client behaviour), [data.md](/docs/data.md) (documents, types, history, pull, conflicts), [tenants.md](/docs/tenants.md), [audit.md](/docs/audit.md), [publishing.md](/docs/publishing.md), [actions.md](/docs/actions.md), [ai.md](/docs/ai.md), [visitors.md](/docs/visitors.md), [widgets.md](/docs/widgets.md), [architecture.md](/docs/architecture.md); the sync client's own guide (`libs/sync-client/README.md` in the repository) is [sync-client.md](/docs/sync-client.md).",
  '',
];
