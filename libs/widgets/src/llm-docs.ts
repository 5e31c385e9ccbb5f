import { z } from 'zod';
import type { InlineTranslation } from './inline-translation';
import type { WidgetRegistration } from './registration';
import type { WidgetRegistry } from './registry';

export const WIDGETS_LLM_PATH = '/docs/widgets/llm.txt';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  default?: unknown;
  description?: string;
  anyOf?: JsonSchema[];
};

/** English first, then the other languages: `Visitor check-in (de: Besucher-Check-in)`. */
function text(translation: InlineTranslation | undefined): string {
  if (!translation) return '';
  const { en, ...others } = translation;
  const rest = Object.entries(others).map(([language, value]) => `${language}: ${value}`);
  if (en === undefined) return rest.join('; ');
  return rest.length ? `${en} (${rest.join('; ')})` : en;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(' or ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'values'}`;
  if (schema.type === 'object' && schema.properties) {
    const fields = Object.entries(schema.properties).map(([name, property]) => `${name}: ${typeOf(property)}`);
    return `{ ${fields.join(', ')} }`;
  }
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
    return schema.description?.startsWith('Text per language code') ? 'InlineTranslation (object of language code to text, never a plain string)' : `object of ${typeOf(schema.additionalProperties)}`;
  }
  if (schema.type === 'integer') return 'number';
  return Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
}

function configurationLines(registration: WidgetRegistration): string[] {
  if (!registration.dataSchema) return ['Configuration: none.'];
  const schema = z.toJSONSchema(registration.dataSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const lines = ['Configuration (the widget\'s `data`):'];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const presence = required.has(name) ? 'required' : property.default === undefined ? 'optional, default none' : `default ${JSON.stringify(property.default)}`;
    const about = property.description && !property.description.startsWith('Text per language code') ? ` ${property.description}.` : '';
    lines.push(`- ${name}: ${typeOf(property)}; ${presence}.${about}`);
  }
  return lines;
}

/** `/docs/widgets/llm.txt`: every catalogue widget with its configuration, from the registry. */
export function widgetsLlmText(registry: WidgetRegistry): string {
  const sections = registry.catalogue().map((registration) =>
    [
      `## ${registration.name}`,
      '',
      `- Name: ${registration.name}`,
      `- Title: ${text(registration.title) || registration.name}`,
      `- Description: ${text(registration.description)}`,
      `- Category: ${registration.category ?? 'none'}`,
      '',
      ...configurationLines(registration),
    ].join('\n'),
  );
  return [
    '# Widget catalogue',
    '',
    '> The widgets an application page can be built from. A page is a WidgetTree: `rootWidgetId` and `widgets`, a map of id to widget; a widget has `id`, `name` (one of the names below), `data` (its configuration), `styles` (CSS property to value) and `slots` (slot name to the ids of the widgets in it). Texts are InlineTranslation objects keyed by language code, never plain strings. This document is generated from the platform\'s widget registry.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

/**
 * `/llm.txt`: what the platform is, and where an agent finds the widget catalogue; `guide` (lines)
 * goes between the links and the widgets: the gateway's sign-in, sync and guides sections.
 */
export function platformLlmText(registry: WidgetRegistry, guide: readonly string[] = []): string {
  return [
    '# Platform',
    '',
    '> A multi-tenant platform: projects hold typed documents with revision history, incremental sync and conflict detection, row-level security, an audit trail, published application versions, workflow actions and visitor check-in. Applications are built from widgets.',
    '',
    '## Docs',
    '',
    `- [Widget catalogue](${WIDGETS_LLM_PATH}): every widget an application page can use, with each configuration property, its type and default`,
    '- [HTTP API](/api/openapi.json): the OpenAPI document of every route',
    '',
    ...guide,
    '## Widgets',
    '',
    ...registry.catalogue().map((registration) => `- [${registration.name}](${WIDGETS_LLM_PATH}#${registration.name.toLowerCase()}): ${text(registration.description)}`),
    '',
  ].join('\n');
}
