import { randomBytes } from 'node:crypto';
import type { Api } from './api';

export interface Fixture {
  owner: Api;
  projectId: string;
  typeId: string;
  actionId: string;
  /** `/api/projects/{projectId}/types/{typeId}/data` */
  dataPath: string;
}

/**
 * A signed-in owner, a project, a type and one action on documentCreated of that type with a
 * single cheap block, so every created document gets exactly one run.
 */
export async function seed(anonymous: Api): Promise<Fixture> {
  const email = `chaos-${randomBytes(4).toString('hex')}@example.org`;
  const { token } = await anonymous.expect<{ token: string }>(201, 'POST', '/api/auth/register', { email, password: 'chaos password 1', displayName: 'Chaos Owner' });
  const owner = anonymous.as(token);
  const project = await owner.expect<{ id: string }>(201, 'POST', '/api/projects', { name: 'Chaos' });
  const typeId = 'notes';
  await owner.expect(201, 'POST', `/api/projects/${project.id}/types`, { id: typeId, name: 'Notes' });
  const action = await owner.expect<{ id: string }>(201, 'POST', `/api/projects/${project.id}/actions`, {
    title: 'Check new notes',
    triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId } }],
    blocks: [{ id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.title', operator: 'exists' } }],
  });
  return { owner, projectId: project.id, typeId, actionId: action.id, dataPath: `/api/projects/${project.id}/types/${typeId}/data` };
}
