import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/openapi';
import { counted } from '../../components/counted';
import { SelectField } from '../../components/select-field';
import { useUserName } from '../../components/user-name';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { useLoad } from '../../components/use-load';
import { Link } from '../../router';
import { actionsPath } from './action-paths';
import { documentPath } from '../../paths';
import { RunByHand } from './run-by-hand';

type Run = paths['/api/projects/{projectId}/actions/{actionId}/runs']['get']['responses'][200]['content']['application/json']['items'][number];
type BlockResult = Run['blocks'][number];
type RunStatus = Run['status'];

const RUN_STATUSES: readonly RunStatus[] = ['failed', 'succeeded', 'running', 'interrupted'];

const RUNS_PAGE = 20;
const RUNS_REFRESH_MS = 3_000;

const duration = (ms: number | undefined) => (ms === undefined ? '…' : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`);

/** How long the run waited for its event after the change was written ("12 ms after the change", "2.4 s ..."); nothing for runs recorded before that was kept. */
function WaitNote({ run }: { run: Run }) {
  if (run.changedAt === undefined) return null;
  const ms = Math.max(0, run.startedAt - run.changedAt);
  return <div className="run-note">{`${ms < 1_000 ? duration(ms) : `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`} after the change`}</div>;
}

/** A run its owner started by hand: the change's kind and who ran it. */
function RunByHandNote({ triggerName, userId }: { triggerName: string; userId: string }) {
  return <>{`${triggerName}, run by hand by ${useUserName(userId)}`}</>;
}

/** What a block did: its summary, its error, or why it was skipped. */
function BlockOutcome({ result }: { result: BlockResult }) {
  if (result.error) return <span className="run-error">{`${result.error.code}: ${result.error.message}`}</span>;
  if (result.reason) return <span>{result.reason}</span>;
  return <code>{JSON.stringify(result.summary ?? {})}</code>;
}

/** An action's runs, newest first: when each started (and how long after its change), status, duration, each block's result or error, and the document that triggered it. */
export function ActionRuns({ projectId, actionId }: { projectId: string; actionId: string }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<RunStatus>();
  const action = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/actions/{actionId}', { params: { path: { projectId, actionId } } })), `${projectId}/${actionId}`);
  const runs = useLoad(
    () => unwrap(api.GET('/api/projects/{projectId}/actions/{actionId}/runs', { params: { path: { projectId, actionId }, query: { page, pageSize: RUNS_PAGE, ...(status ? { status } : {}) } } })),
    `${projectId}/${actionId}/${page}/${status ?? ''}`,
  );
  const pages = Math.max(1, Math.ceil((runs.value?.total ?? 0) / RUNS_PAGE));
  const reload = runs.reload;

  // New runs appear by themselves while the tab is visible (one small paged read each time).
  useEffect(() => {
    const timer = window.setInterval(() => document.visibilityState === 'visible' && reload(), RUNS_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [reload]);
  return (
    <main className="wide">
      <p className="crumbs">
        <Link to={actionsPath(projectId)}>Actions</Link> / <Link to={actionsPath(projectId, actionId)}>{action.value?.title ?? actionId}</Link>
      </p>
      <h1>Runs of {action.value?.title ?? actionId}</h1>
      <LoadError error={action.error ?? runs.error} />
      {action.value && <RunByHand projectId={projectId} action={action.value} onStarted={runs.reload} />}
      <div className="toolbar">
        <button type="button" onClick={runs.reload}>
          Refresh
        </button>
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(event) => {
            setStatus(RUN_STATUSES.find((candidate) => candidate === event.target.value));
            setPage(1);
          }}
        >
          <option value="">Any status</option>
          {RUN_STATUSES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </SelectField>
        <span role="status">{runs.value ? `${counted(runs.value.total, status ? `${status} run` : 'run')}, page ${page} of ${pages}` : 'Loading…'}</span>
        <Pager page={page} pages={pages} onPage={setPage} previousLabel="Newer" nextLabel="Older" />
      </div>
      <table aria-label="Runs">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Document</th>
            <th scope="col">Blocks</th>
          </tr>
        </thead>
        <tbody>
          {(runs.value?.items ?? []).map((run) => (
            <tr key={run.id}>
              <td>
                {new Date(run.startedAt).toLocaleString()}
                <WaitNote run={run} />
              </td>
              <td className={`run-${run.status}`}>{run.status}</td>
              <td>{duration(run.durationMs)}</td>
              <td>
                <Link to={documentPath(projectId, run.typeId, run.documentId)}>
                  {run.typeId}/{run.documentId}
                </Link>
                <div className="run-note">{run.startedBy ? <RunByHandNote triggerName={run.triggerName} userId={run.startedBy} /> : run.triggerName}</div>
              </td>
              <td>
                {run.error && <p className="run-error">{`${run.error.code}: ${run.error.message}`}</p>}
                <ul className="run-blocks" aria-label={`Blocks of run ${run.id}`}>
                  {run.blocks.map((result) => (
                    <li key={result.blockId}>
                      <strong>{result.blockId}</strong> ({result.blockName}): <span className={`run-${result.status}`}>{result.status}</span>, {duration(result.durationMs)} <BlockOutcome result={result} />
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {runs.value?.items.length === 0 && !status && <p>No run yet: the action runs when a document event matches one of its triggers, or when its owner runs it on a document above.</p>}
      {runs.value?.items.length === 0 && status && <p>{`No ${status} run.`}</p>}
    </main>
  );
}
