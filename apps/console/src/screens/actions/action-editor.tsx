import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import type { paths } from '../../api/openapi';
import { ActionGraph } from '../../components/action-graph/action-graph';
import { BlockConfiguration } from '../../components/action-graph/block-configuration';
import { ConnectionList } from '../../components/action-graph/connection-list';
import { freeBlockId, triggerNames, withoutBlock, type ActionGraph as Graph, type BlockDefinition, type DraftTrigger } from '../../components/action-graph/graph-model';
import { noProblems, placeProblems, problemsOf, type PlacedProblems } from '../../components/action-graph/graph-problems';
import { Field, TextField } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { useLoad } from '../../components/use-load';
import { Link, navigate } from '../../router';
import { actionsPath } from './action-paths';
import { DeleteAction } from './delete-action';

type Action = paths['/api/projects/{projectId}/actions/{actionId}']['get']['responses'][200]['content']['application/json'];

const emptyAction = { title: '', triggers: [], blocks: [], connections: [] } satisfies Partial<Action>;

/** A trigger id not used yet: `t1`, `t2`, ... */
function freeTriggerId(triggers: DraftTrigger[]): string {
  const used = new Set(triggers.map((trigger) => trigger.id));
  let count = 1;
  while (used.has(`t${count}`)) count += 1;
  return `t${count}`;
}

/** Adds a trigger (its name, optionally limited to one type). */
function AddTrigger({ onAdd }: { onAdd(trigger: Omit<DraftTrigger, 'id'>): void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typeId = String(form.get('typeId') ?? '').trim();
    onAdd({ triggerName: String(form.get('triggerName')) as DraftTrigger['triggerName'], ...(typeId ? { configuration: { typeId } } : {}) });
    event.currentTarget.reset();
  };
  const id = useId();
  return (
    <form onSubmit={submit} className="toolbar" aria-label="Add trigger">
      <label htmlFor={`${id}-name`}>Trigger</label>
      <select id={`${id}-name`} name="triggerName">
        {triggerNames.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </select>
      <label htmlFor={`${id}-type`}>Of type</label>
      <input id={`${id}-type`} name="typeId" placeholder="every type" size={12} />
      <button type="submit">Add trigger</button>
    </form>
  );
}

/** Adds a block of a registered kind, with an id of the user's choice or one made from its kind. */
function AddBlock({ definitions, onAdd }: { definitions: BlockDefinition[]; onAdd(blockName: string, id: string): void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onAdd(String(form.get('blockName')), String(form.get('blockId') ?? '').trim());
    event.currentTarget.reset();
  };
  const id = useId();
  return (
    <form onSubmit={submit} className="toolbar" aria-label="Add block">
      <label htmlFor={`${id}-name`}>Block</label>
      <select id={`${id}-name`} name="blockName">
        {definitions.map((definition) => (
          <option key={definition.name}>{definition.name}</option>
        ))}
      </select>
      <label htmlFor={`${id}-id`}>Block id</label>
      <input id={`${id}-id`} name="blockId" placeholder="from its kind" size={14} />
      <button type="submit">Add block</button>
    </form>
  );
}

function Editor({ projectId, action, definitions }: { projectId: string; action: Action | undefined; definitions: BlockDefinition[] }) {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const [title, setTitle] = useState(action?.title ?? emptyAction.title);
  const [description, setDescription] = useState(action?.description ?? '');
  const [graph, setGraph] = useState<Graph>({
    triggers: action?.triggers ?? emptyAction.triggers,
    blocks: action?.blocks ?? emptyAction.blocks,
    connections: action?.connections ?? emptyAction.connections,
  });
  const [selected, setSelected] = useState<string>();
  const [problems, setProblems] = useState<PlacedProblems>(noProblems);
  const [saved, setSaved] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [stored, setStored] = useState(action);

  const change = (next: Graph) => {
    setGraph(next);
    setSaved(undefined);
  };
  const selectedBlock = graph.blocks.find((block) => block.id === selected);

  const save = async () => {
    const body = {
      title,
      ...(description.trim() ? { description } : {}),
      ...graph,
      // Sent back as read (setting or changing it needs the project's update permission).
      ...(stored?.access ? { access: stored.access } : {}),
    };
    setSaving(true);
    try {
      const answer = stored
        ? await unwrap(api.PUT('/api/projects/{projectId}/actions/{actionId}', { params: { path: { projectId, actionId: stored.id } }, body }))
        : await unwrap(api.POST('/api/projects/{projectId}/actions', { params: { path: { projectId } }, body }));
      setProblems(noProblems);
      if (!stored) navigate(actionsPath(projectId, answer.id), { replace: true });
      else {
        setStored(answer);
        setSaved(`Saved: revision ${answer.revision}`);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const placed = placeProblems(problemsOf(error), graph, byName);
      // The first problem is the error's message already; others not placed on the graph follow it.
      setProblems({ ...placed, form: [`Not saved: ${error.message}`, ...placed.form.filter((message) => !error.message.includes(message))] });
    } finally {
      setSaving(false);
    }
  };

  return (
    <main className="wide">
      <p className="crumbs">
        <Link to={actionsPath(projectId)}>Actions</Link> / {stored ? stored.title : 'New action'}
        {stored && (
          <>
            {' '}
            · <Link to={actionsPath(projectId, stored.id, 'runs')}>Runs</Link>
          </>
        )}
      </p>
      <h1>{stored ? `Action: ${stored.title}` : 'New action'}</h1>
      <div className="columns">
        <div>
          <Field label="Title" value={title} onChange={(event) => setTitle(event.target.value)} error={problems.fields.title} />
          <TextField label="Description" rows={2} value={description} onChange={(event) => setDescription(event.target.value)} error={problems.fields.description} />
        </div>
        <div>
          <AddTrigger onAdd={(trigger) => change({ ...graph, triggers: [...graph.triggers, { id: freeTriggerId(graph.triggers), ...trigger }] })} />
          <AddBlock
            definitions={definitions}
            onAdd={(blockName, id) => {
              const blockId = id || freeBlockId(graph, blockName);
              change({ ...graph, blocks: [...graph.blocks, { id: blockId, blockName, configuration: {} }] });
              setSelected(blockId);
            }}
          />
        </div>
      </div>
      <ActionGraph
        graph={graph}
        definitions={byName}
        problems={problems}
        selectedBlockId={selected}
        onSelectBlock={(blockId) => setSelected(blockId === selected ? undefined : blockId)}
        onConnect={(connection) => change({ ...graph, connections: [...graph.connections, connection] })}
        onRemoveTrigger={(triggerId) => change({ ...graph, triggers: graph.triggers.filter((trigger) => trigger.id !== triggerId) })}
      />
      <div className="columns">
        <div>
          <h2>Connections</h2>
          <ConnectionList connections={graph.connections} problems={problems.connections} onRemove={(removed) => change({ ...graph, connections: graph.connections.filter((connection) => connection !== removed) })} />
        </div>
        {selectedBlock && (
          <BlockConfiguration
            key={selectedBlock.id}
            block={selectedBlock}
            definition={byName.get(selectedBlock.blockName)}
            errors={problems.fields}
            onChange={(configuration) => change({ ...graph, blocks: graph.blocks.map((block) => (block.id === selectedBlock.id ? { ...block, configuration } : block)) })}
            onRemove={() => {
              change(withoutBlock(graph, selectedBlock.id));
              setSelected(undefined);
            }}
          />
        )}
      </div>
      {problems.form.map((message) => (
        <p key={message} role="alert" className="form-error">
          {message}
        </p>
      ))}
      <div className="toolbar">
        <button type="button" disabled={saving} onClick={() => void save()}>
          Save action
        </button>
        {saved && <span role="status">{saved}</span>}
        {stored && <DeleteAction projectId={projectId} action={stored} />}
      </div>
    </main>
  );
}

/** The action editor: the action as a graph, its triggers, blocks and their settings; `Save action` sends it whole. */
export default function ActionEditor({ projectId, actionId }: { projectId: string; actionId: string | undefined }) {
  const definitions = useLoad(async () => (await unwrap(api.GET('/api/actions/blocks'))).blocks, 'blocks');
  const action = useLoad(
    () => (actionId ? unwrap(api.GET('/api/projects/{projectId}/actions/{actionId}', { params: { path: { projectId, actionId } } })) : Promise.resolve(undefined)),
    `${projectId}/${actionId ?? 'new'}`,
  );
  const error = definitions.error ?? action.error;
  if (definitions.value && (actionId === undefined || action.value)) return <Editor projectId={projectId} action={action.value} definitions={definitions.value} />;
  return (
    <main>
      <h1>{actionId ? 'Action' : 'New action'}</h1>
      {error ? <LoadError error={error} /> : <p className="loading">Loading…</p>}
    </main>
  );
}
