import { describe, expect, it } from 'vitest';
import { visitorTypesOf } from './visitor-types';

const application = (...widgets: Array<{ id: string; data: unknown }>) => ({
  routes: [{ path: '/', widgetTree: { rootWidgetId: widgets[0]?.id, widgets: Object.fromEntries(widgets.map((widget) => [widget.id, { ...widget, name: 'CheckIn' }])) } }],
});

describe('visitorTypesOf', () => {
  it('lists each visitor type a CheckIn widget names once, in the order first met', () => {
    const applications = [application({ id: 'a', data: { visitorTypeId: 'guests' } }, { id: 'b', data: { visitorTypeId: 'staff' } }), application({ id: 'c', data: { visitorTypeId: 'guests' } })];
    expect(visitorTypesOf(applications)).toEqual(['guests', 'staff']);
  });

  it('skips widgets without a visitor type and those whose configuration is invalid', () => {
    const applications = [application({ id: 'a', data: {} }, { id: 'b', data: { visitorTypeId: 'guests', deletionPeriods: [] } })];
    expect(visitorTypesOf(applications)).toEqual([]);
  });
});
