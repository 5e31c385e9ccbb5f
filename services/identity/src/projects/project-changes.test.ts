import type { ProjectChange } from '@platform/contracts';
import type { ProjectRecord } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { projectChangeMessages, projectSettingsChanged } from './project-changes';

const project: ProjectRecord = { id: 'p1', name: 'Launch', ownerId: 'ada', tenantId: 't2', aiEnabled: false, createdAt: 1, updatedAt: 5, revision: 3 };
const data = (messages: Array<{ data: Record<string, unknown> }>) => messages.map((message) => message.data as ProjectChange);

describe('projectChangeMessages', () => {
  it("publish each change under the project's subject and a message id of its revision", () => {
    expect(projectSettingsChanged('aiEnabled', project, 'bea', 9)).toEqual([
      { subject: 'platform.projects.p1.changed', msgId: 'project-change:p1/3', data: { projectId: 'p1', revision: 3, name: 'Launch', change: 'aiEnabled', changedBy: 'bea', timestamp: 9 } },
    ]);
  });

  it('say what a rename, a move and a change of owner left behind, and find no change in the same name or tenant', () => {
    expect(data(projectChangeMessages('renamed', { after: project, before: { ...project, name: 'Draft' } }, 'bea', 9))[0]).toMatchObject({ previousName: 'Draft' });
    expect(projectChangeMessages('renamed', { after: project, before: project }, 'bea', 9)).toEqual([]);
    expect(data(projectChangeMessages('moved', { after: project, before: { ...project, tenantId: 't1' } }, 'bea', 9))[0]).toMatchObject({ tenantId: 't2', previousTenantId: 't1' });
    expect(projectChangeMessages('moved', { after: project, before: project }, 'bea', 9)).toEqual([]);
    expect(data(projectChangeMessages('ownerChanged', { after: project }, 'bea', 9, 'cy'))[0]).toMatchObject({ ownerId: 'ada', previousOwnerId: 'cy' });
    // Fields of one kind of change never ride on another.
    expect(Object.keys(data(projectSettingsChanged('created', project, 'ada', 9))[0]!).sort()).toEqual(['change', 'changedBy', 'name', 'projectId', 'revision', 'timestamp']);
  });
});
