import { z } from 'zod';

/** The spec's ActionSocketType values. */
export const socketTypes = ['string', 'number', 'boolean', 'string[]', 'number[]', 'boolean[]', 'object', 'object[]', 'null'] as const;
export type SocketType = (typeof socketTypes)[number];

export const socketDirections = ['IN', 'OUT'] as const;

export const actionSocketSchema = z.object({
  name: z.string(),
  type: z.enum(socketTypes),
  direction: z.enum(socketDirections),
  description: z.string().optional(),
});
export type ActionSocket = z.infer<typeof actionSocketSchema>;

/**
 * Whether an output of type `source` may feed an input of type `target`: the same type, or
 * anything into `object` (an object input takes whatever arrives). `T` into `T[]` is not allowed:
 * no block wraps single values, so such a connection would only fail at run time.
 */
export function socketsCompatible(source: SocketType, target: SocketType): boolean {
  return source === target || target === 'object';
}

/** Whether a value fits a socket type, checked on every value that crosses a connection at run time. */
export function valueFits(type: SocketType, value: unknown): boolean {
  switch (type) {
    case 'object':
      return true;
    case 'null':
      return value === null;
    case 'object[]':
      return Array.isArray(value);
    case 'string[]':
    case 'number[]':
    case 'boolean[]':
      return Array.isArray(value) && value.every((item) => typeof item === type.slice(0, -2));
    default:
      return typeof value === type;
  }
}
