import type { FieldDefinition, TypeSchema } from './type-schema';

const words = ['aurora', 'harbor', 'meadow', 'summit', 'lantern', 'willow', 'canyon', 'ember', 'glacier', 'orchard', 'prairie', 'quartz'];
const firstNames = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken'];
const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson'];

/** A small deterministic generator, so the same seed gives the same samples (testable, repeatable). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function sampleString(name: string, definition: FieldDefinition, random: () => number): string {
  const lower = name.toLowerCase();
  let value: string;
  if (lower.includes('email')) value = `${pick(random, firstNames).toLowerCase()}.${pick(random, lastNames).toLowerCase()}@example.com`;
  else if (lower.includes('first')) value = pick(random, firstNames);
  else if (lower.includes('last') || lower.includes('surname')) value = pick(random, lastNames);
  else if (lower.includes('name') || lower.includes('title')) value = `${pick(random, words)} ${pick(random, words)}`.replace(/^./, (c) => c.toUpperCase());
  else if (lower.includes('url')) value = `https://example.com/${pick(random, words)}`;
  else value = `${pick(random, words)} ${pick(random, words)} ${pick(random, words)}`;
  const min = definition.minLength ?? 0;
  while (value.length < min) value += ` ${pick(random, words)}`;
  return definition.maxLength !== undefined ? value.slice(0, definition.maxLength) : value;
}

function sampleValue(name: string, definition: FieldDefinition, random: () => number, now: number): unknown {
  if (definition.enum) return pick(random, definition.enum);
  switch (definition.type) {
    case 'string':
      return sampleString(name, definition, random);
    case 'number':
    case 'integer': {
      const min = definition.minimum ?? 0;
      const max = definition.maximum ?? min + 1000;
      const value = min + random() * (max - min);
      return definition.type === 'integer' ? Math.min(max, Math.max(min, Math.round(value))) : Math.round(value * 100) / 100;
    }
    case 'timestamp':
      return now - Math.floor(random() * 30 * 24 * 60 * 60 * 1000);
    case 'boolean':
      return random() < 0.5;
    case 'array':
      return definition.items ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => sampleValue(name, definition.items as FieldDefinition, random, now)) : [];
    case 'object':
      return definition.fields ? sampleDocument({ fields: definition.fields }, random, now) : {};
  }
}

function sampleDocument(schema: TypeSchema, random: () => number, now: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.fields).map(([name, definition]) => [name, sampleValue(name, definition, random, now)]));
}

/** `count` realistic documents that satisfy the schema (every field filled, constraints respected). */
export function generateSamples(schema: TypeSchema, count: number, seed: number, now: number): Array<Record<string, unknown>> {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => sampleDocument(schema, random, now));
}
