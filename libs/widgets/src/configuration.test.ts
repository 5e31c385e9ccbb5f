import { describe, expect, it } from 'vitest';
import { widgetRegistry } from './registry';
import { defaultDeletionPeriod } from './widgets/check-in';

describe('effective configuration and the spec defaults', () => {
  it('GameWorld: 800x600, sound on, minimap off, movement free, no sprite; mapId required', () => {
    expect(widgetRegistry.resolveConfiguration({ name: 'GameWorld', data: { mapId: 'm1' } })).toEqual({
      success: true,
      configuration: { mapId: 'm1', width: 800, height: 600, enableSound: true, showMinimap: false, movementType: 'free' },
    });
    const missing = widgetRegistry.resolveConfiguration({ name: 'GameWorld', data: {} });
    expect(missing).toMatchObject({ success: false, issues: [{ field: 'data.mapId' }] });
  });

  it('GameWorld keeps given values and refuses a movement type other than free or grid', () => {
    const given = { mapId: 'm1', width: 1024, height: 768, enableSound: false, showMinimap: true, playerSprite: '/hero.png', movementType: 'grid' };
    expect(widgetRegistry.resolveConfiguration({ name: 'GameWorld', data: given })).toEqual({ success: true, configuration: given });
    expect(widgetRegistry.resolveConfiguration({ name: 'GameWorld', data: { mapId: 'm1', movementType: 'diagonal' } })).toMatchObject({ success: false, issues: [{ field: 'data.movementType' }] });
  });

  it('StreamVideo: empty url and all five flags true', () => {
    expect(widgetRegistry.resolveConfiguration({ name: 'StreamVideo' })).toEqual({
      success: true,
      configuration: { url: '', autoplay: true, loop: true, muted: true, preload: true, responsive: true },
    });
  });

  it('CheckIn: scanner off and one 28-day deletion period when omitted; texts stay unset', () => {
    const result = widgetRegistry.resolveConfiguration({ name: 'CheckIn', data: {} });
    expect(result).toEqual({
      success: true,
      configuration: { scannerEnabled: false, deletionPeriods: [{ duration: 2_419_200_000, label: { en: '28 days', de: '28 Tage' }, isDefault: true }] },
    });
  });

  it('CheckIn: given deletion periods replace the default; isDefault defaults to false; the marked one is pre-selected', () => {
    const result = widgetRegistry.resolveConfiguration({
      name: 'CheckIn',
      data: { deletionPeriods: [{ duration: 1000, label: { en: '1 s' } }, { duration: 2000, label: { en: '2 s' }, isDefault: true }] },
    });
    if (!result.success) throw new Error('expected a valid configuration');
    const periods = result.configuration.deletionPeriods as Array<{ duration: number; isDefault: boolean }>;
    expect(periods.map((period) => period.isDefault)).toEqual([false, true]);
    expect(defaultDeletionPeriod({ deletionPeriods: periods as never }).duration).toBe(2000);
    expect(defaultDeletionPeriod({ deletionPeriods: [{ duration: 5, label: { en: 'x' }, isDefault: false }] }).duration).toBe(5);
  });

  it.each([
    ['a plain string title', { title: 'Welcome' }, 'data.title'],
    ['a plain string deletion label', { deletionPeriods: [{ duration: 1000, label: '1 s' }] }, 'data.deletionPeriods.0.label'],
    ['no deletion periods at all', { deletionPeriods: [] }, 'data.deletionPeriods'],
    ['two default periods', { deletionPeriods: [{ duration: 1, label: { en: 'a' }, isDefault: true }, { duration: 2, label: { en: 'b' }, isDefault: true }] }, 'data.deletionPeriods'],
    ['a negative duration', { deletionPeriods: [{ duration: -1, label: { en: 'a' } }] }, 'data.deletionPeriods.0.duration'],
    ['a scanner flag that is not boolean', { scannerEnabled: 'yes' }, 'data.scannerEnabled'],
  ])('CheckIn refuses %s', (_case, data, field) => {
    const result = widgetRegistry.resolveConfiguration({ name: 'CheckIn', data });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues.map((issue) => issue.field)).toContain(field);
  });

  it('refuses a widget type that is not registered', () => {
    expect(widgetRegistry.resolveConfiguration({ name: 'Nope' })).toMatchObject({ success: false, issues: [{ field: 'name' }] });
  });
});
