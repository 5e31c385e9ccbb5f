import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inlineTranslationSchema } from './inline-translation';
import { widgetRegistrationSchema } from './registration';
import { WidgetRegistrationError, WidgetRegistry, widgetRegistry } from './registry';
import { widgetSchema, widgetTreeSchema } from './widget';

describe('InlineTranslation', () => {
  it.each([
    ['an object of language codes', { en: 'Hello', de: 'Hallo', 'pt-BR': 'Olá' }, true],
    ['a plain string', 'Hello', false],
    ['an empty object', {}, false],
    ['a key that is not a language code', { English: 'Hello' }, false],
    ['a value that is not text', { en: 1 }, false],
    ['an array', ['Hello'], false],
    ['null', null, false],
  ])('%s: accepted %s', (_case, value, accepted) => {
    expect(inlineTranslationSchema.safeParse(value).success).toBe(accepted);
  });

  it('explains that a string is never a translation', () => {
    const result = inlineTranslationSchema.safeParse('Hello');
    expect(result.error?.issues[0]?.message).toContain('never a plain string');
  });
});

describe('WidgetRegistration', () => {
  const base = { name: 'Clock', componentLoader: () => Promise.resolve({}) };

  it.each([
    ['a minimal registration', base, true],
    ['catalogue widget with a description', { ...base, visibleInCatalog: true, description: { en: 'Shows the time' } }, true],
    ['catalogue widget without a description', { ...base, visibleInCatalog: true }, false],
    ['hidden widget without a description', { ...base, visibleInCatalog: false }, true],
    ['a string title', { ...base, title: 'Clock' }, false],
    ['a string description', { ...base, visibleInCatalog: true, description: 'Shows the time' }, false],
    ['no component loader', { name: 'Clock' }, false],
    ['a module specifier as loader', { name: 'Clock', componentLoader: './clock' }, true],
    ['a data schema that is not a zod schema', { ...base, dataSchema: { type: 'object' } }, false],
    ['a zod data schema', { ...base, dataSchema: z.object({ zone: z.string() }) }, true],
    ['a name with spaces', { ...base, name: 'My Clock' }, false],
  ])('%s: valid %s', (_case, registration, valid) => {
    expect(widgetRegistrationSchema.safeParse(registration).success).toBe(valid);
  });

  it('names the description field when it is missing from a catalogue widget', () => {
    const result = widgetRegistrationSchema.safeParse({ ...base, visibleInCatalog: true });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['description']);
  });

  it('refuses a second registration under the same name and an invalid one', () => {
    const registry = new WidgetRegistry([base]);
    expect(() => registry.register({ ...base })).toThrow(WidgetRegistrationError);
    expect(() => registry.register({ ...base, name: 'Other', visibleInCatalog: true })).toThrow(/description/);
    expect(registry.all().map((registration) => registration.name)).toEqual(['Clock']);
  });

  it('registers GameWorld, StreamVideo and CheckIn; the catalogue holds StreamVideo and CheckIn', () => {
    expect(widgetRegistry.all().map((registration) => registration.name).sort()).toEqual(['CheckIn', 'GameWorld', 'StreamVideo']);
    expect(widgetRegistry.catalogue().map((registration) => [registration.name, registration.category])).toEqual([
      ['CheckIn', 'content'],
      ['StreamVideo', 'content'],
    ]);
  });
});

describe('Widget and WidgetTree', () => {
  it.each([
    ['a full widget', { id: 'a', name: 'StreamVideo', data: { url: 'x' }, styles: { color: 'red' }, slots: { main: ['b'] } }, true],
    ['a widget without name', { id: 'a' }, false],
    ['a style that is not text', { id: 'a', name: 'X', styles: { width: 10 } }, false],
    ['a slot that is not a list of ids', { id: 'a', name: 'X', slots: { main: 'b' } }, false],
  ])('%s: valid %s', (_case, widget, valid) => {
    expect(widgetSchema.safeParse(widget).success).toBe(valid);
  });

  it('accepts a tree with and without a root id', () => {
    expect(widgetTreeSchema.safeParse({ widgets: {} }).success).toBe(true);
    expect(widgetTreeSchema.safeParse({ rootWidgetId: 'a', widgets: { a: { id: 'a', name: 'X' } } }).success).toBe(true);
    expect(widgetTreeSchema.safeParse({ rootWidgetId: 'a' }).success).toBe(false);
  });
});
