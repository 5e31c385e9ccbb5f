import { describe, expect, it } from 'vitest';
import { RouteTemplates } from './route-templates';

const operation = { responses: {} };

describe('RouteTemplates', () => {
  const templates = new RouteTemplates({
    '/api/projects/{projectId}/types/{typeId}/data': { get: operation, post: operation },
    '/api/projects/{projectId}/types/{typeId}/data/{id}': { get: operation, patch: operation, delete: operation },
    '/api/projects/{projectId}/types/{typeId}/schema': { get: operation },
    '/api/projects/{projectId}/audit-trail': { get: operation },
  });

  it('finds the template a path and method reach, with the path parameters as the router names them', () => {
    expect(templates.templateOf('POST', '/api/projects/p1/types/notes/data')).toBe('/api/projects/:projectId/types/:typeId/data');
    expect(templates.templateOf('PATCH', '/api/projects/p1/types/notes/data/d1')).toBe('/api/projects/:projectId/types/:typeId/data/:id');
    expect(templates.templateOf('GET', '/api/projects/p1/types/notes/schema')).toBe('/api/projects/:projectId/types/:typeId/schema');
    expect(templates.templateOf('GET', '/api/projects/p1/audit-trail?limit=5&typeId=notes')).toBe('/api/projects/:projectId/audit-trail');
    expect(templates.templateOf('GET', '/api/projects/p1/audit-trail/')).toBe('/api/projects/:projectId/audit-trail');
  });

  it('knows no template for a method or path the documents do not describe', () => {
    expect(templates.templateOf('PUT', '/api/projects/p1/types/notes/data')).toBeUndefined();
    expect(templates.templateOf('GET', '/api/projects/p1/unknown')).toBeUndefined();
    expect(new RouteTemplates({}).templateOf('GET', '/api/health')).toBeUndefined();
  });
});
