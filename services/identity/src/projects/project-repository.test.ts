import { temporaryEmbeddedStore } from '@platform/storage/testing';
import { describe, expect, it } from 'vitest';
import { ProjectRepository } from './project-repository';

describe('ProjectRepository memberships', () => {
  it('replaces a member\'s permissions with those before answered, never adds a member, and refuses the owner\'s', async () => {
    const temporary = await temporaryEmbeddedStore('project-repository');
    try {
      const projects = new ProjectRepository(temporary.store, () => 1_000);
      const project = await projects.create({ name: 'P', ownerId: 'owner', tenantId: 't1' });
      expect(await projects.putMember(project.id, 'ada', ['editors'])).toEqual({ member: expect.objectContaining({ userId: 'ada', permissions: [`${project.id}::editors`] }) });

      expect(await projects.replacePermissions(project.id, 'ada', ['readers', 'readers'])).toEqual({
        member: expect.objectContaining({ permissions: [`${project.id}::readers`] }),
        previousPermissions: [`${project.id}::editors`],
      });
      // An invitation accepted again by a member replaces its permissions too, saying what they were.
      expect((await projects.putMember(project.id, 'ada', ['editors'])).previousPermissions).toEqual([`${project.id}::readers`]);

      expect(await projects.removeMember(project.id, 'ada')).toMatchObject({ userId: 'ada', permissions: [`${project.id}::editors`] });
      expect(await projects.replacePermissions(project.id, 'ada', ['editors'])).toBeNull();
      expect(await projects.findMember(project.id, 'ada')).toBeNull();
      expect(await projects.removeMember(project.id, 'ada')).toBeNull();

      await expect(projects.replacePermissions(project.id, 'owner', ['editors'])).rejects.toMatchObject({ code: 'IDENTITY_OWNER_MEMBERSHIP' });
      expect(await projects.removeMember(project.id, 'owner')).toBeNull();
      expect(await projects.findMember(project.id, 'owner')).toMatchObject({ role: 'owner' });
    } finally {
      await temporary.dispose();
    }
  });
});
