import { describe, expect, it } from 'vitest';
import { checkApplication, hasKiosk } from './application-rules';

const checkIn = (data: unknown) => [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data } } } }];

describe('checkApplication', () => {
  it('accepts a translated title and routes of valid widget trees', () => {
    const result = checkApplication({ title: { en: 'Reception', de: 'Empfang' }, routes: checkIn({ visitorTypeId: 'guests' }) });
    expect(result).toEqual({ fields: { title: { en: 'Reception', de: 'Empfang' }, routes: checkIn({ visitorTypeId: 'guests' }) } });
  });

  it('accepts an application without pages', () => {
    expect(checkApplication({ title: { en: 'Empty' }, routes: [] })).toEqual({ fields: { title: { en: 'Empty' }, routes: [] } });
  });

  it('refuses a plain-string title and names the title', () => {
    const result = checkApplication({ title: 'Reception', routes: [] });
    expect('problems' in result && result.problems.map((problem) => problem.field)).toEqual(['title']);
  });

  it('names the widget configuration that breaks the registry rules', () => {
    const result = checkApplication({ title: { en: 'Kiosk' }, routes: checkIn({ deletionPeriods: [] }) });
    // In the server's words (validation-messages.ts), not Zod's "Too small: expected array to have >=1 items".
    expect('problems' in result && result.problems).toEqual([{ field: 'routes', path: 'routes.0.widgetTree.widgets.root.data.deletionPeriods', message: 'must not be empty' }]);
  });

  it('names tree problems: an unregistered widget and a slot naming a missing widget', () => {
    const routes = [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'Carousel', slots: { main: ['ghost'] } } } } }];
    const result = checkApplication({ title: { en: 'x' }, routes });
    expect('problems' in result && result.problems.map((problem) => problem.path).sort()).toEqual(['routes.0.widgetTree.widgets.root.name', 'routes.0.widgetTree.widgets.root.slots.main']);
  });

  it('refuses a route without a leading slash or without a tree', () => {
    const result = checkApplication({ title: { en: 'x' }, routes: [{ path: 'home' }] });
    expect('problems' in result && result.problems.map((problem) => problem.path).sort()).toEqual(['routes.0.path', 'routes.0.widgetTree']);
  });
});

describe('hasKiosk', () => {
  it('is true only with a CheckIn widget naming a visitor type', () => {
    expect(hasKiosk({ routes: checkIn({ visitorTypeId: 'guests' }) })).toBe(true);
    expect(hasKiosk({ routes: checkIn({}) })).toBe(false);
    expect(hasKiosk({ routes: [] })).toBe(false);
  });
});
