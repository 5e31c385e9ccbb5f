import { describe, expect, it } from 'vitest';
import { visitorTypeBinding } from './check-in-bindings';

const application = (widgets: Record<string, unknown>) => ({ title: { en: 'App' }, routes: [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets } }] });

describe('visitorTypeBinding', () => {
  it('names the CheckIn widget and the visitor or visitor-event type it binds', () => {
    expect(visitorTypeBinding(application({ root: { id: 'root', name: 'CheckIn', data: { visitorTypeId: 'guests' } } }))).toEqual({ widgetId: 'root', typeId: 'guests' });
    expect(visitorTypeBinding(application({ kiosk: { id: 'kiosk', name: 'CheckIn', data: { visitorEventTypeId: 'visits' } } }))).toEqual({ widgetId: 'kiosk', typeId: 'visits' });
  });

  it('counts a binding even when the rest of the configuration is invalid', () => {
    expect(visitorTypeBinding(application({ root: { id: 'root', name: 'CheckIn', data: { visitorTypeId: 'guests', deletionPeriods: [] } } }))).toEqual({ widgetId: 'root', typeId: 'guests' });
  });

  it('finds nothing in CheckIn widgets without types, in other widgets, or without widgets', () => {
    expect(visitorTypeBinding(application({ root: { id: 'root', name: 'CheckIn', data: { contactsTypeId: 'contacts' } } }))).toBeUndefined();
    expect(visitorTypeBinding(application({ root: { id: 'root', name: 'Text', data: { visitorTypeId: 'guests' } } }))).toBeUndefined();
    expect(visitorTypeBinding({ title: { en: 'Empty' }, routes: [] })).toBeUndefined();
  });
});
