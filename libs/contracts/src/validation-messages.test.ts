import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installValidationMessages } from './validation-messages';

installValidationMessages();

/** The message of the first issue `schema` finds in `value`. */
function messageOf(schema: z.ZodType, value: unknown): string | undefined {
  return schema.safeParse(value).error?.issues[0]?.message;
}

describe('validation messages', () => {
  it('says a field left out is required, and names the kind a value of another kind must be', () => {
    const body = z.object({ name: z.string(), count: z.number(), tags: z.array(z.string()), access: z.object({}), whole: z.int() });
    expect(messageOf(body, {})).toBe('required');
    expect(messageOf(body.shape.name, 5)).toBe('must be a string');
    expect(messageOf(body.shape.count, '1')).toBe('must be a number');
    expect(messageOf(body.shape.tags, 'a')).toBe('must be an array');
    expect(messageOf(body.shape.access, [])).toBe('must be an object');
    expect(messageOf(body.shape.whole, 1.5)).toBe('must be an integer');
  });

  it('lists the values an enum or a literal takes', () => {
    expect(messageOf(z.enum(['remote', 'localOnly']), 'sometimes')).toBe('must be one of "remote", "localOnly"');
    expect(messageOf(z.literal('application'), 'page')).toBe('must be "application"');
    const operation = z.discriminatedUnion('op', [z.object({ op: z.literal('create') }), z.object({ op: z.literal('delete') })]);
    expect(messageOf(operation, { op: 'upsert' })).toBe('must be one of "create", "delete"');
  });

  it('says bounds of lengths, counts and numbers in words', () => {
    expect(messageOf(z.string().min(1), '')).toBe('must not be empty');
    expect(messageOf(z.string().min(3), 'ab')).toBe('must have at least 3 characters');
    expect(messageOf(z.string().max(2), 'abc')).toBe('must have at most 2 characters');
    expect(messageOf(z.string().length(2), 'abc')).toBe('must have exactly 2 characters');
    expect(messageOf(z.array(z.string()).min(1), [])).toBe('must not be empty');
    expect(messageOf(z.array(z.string()).max(1), ['a', 'b'])).toBe('must have at most 1 item');
    expect(messageOf(z.array(z.string()).min(2), ['a'])).toBe('must have at least 2 items');
    expect(messageOf(z.number().min(1), 0)).toBe('must be at least 1');
    expect(messageOf(z.number().max(100), 101)).toBe('must be at most 100');
    expect(messageOf(z.number().positive(), 0)).toBe('must be greater than 0');
    expect(messageOf(z.number().multipleOf(5), 7)).toBe('must be a multiple of 5');
  });

  it('names formats and patterns', () => {
    expect(messageOf(z.email(), 'nope')).toBe('must be an email address');
    expect(messageOf(z.url(), 'nope')).toBe('must be a URL');
    expect(messageOf(z.string().regex(/^[a-z]+$/), 'A')).toBe('must match /^[a-z]+$/');
  });

  it('leaves a message a schema gives its own rule, and issues it does not cover, as they are', () => {
    expect(messageOf(z.string().min(8, 'at least 8 characters'), 'short')).toBe('at least 8 characters');
    expect(messageOf(z.object({ a: z.string() }).strict(), { a: 'x', b: 1 })).toBe('Unrecognized key: "b"');
  });
});
