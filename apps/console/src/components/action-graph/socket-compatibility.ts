/** The spec's ActionSocketType values, as GET /api/actions/blocks names them. */
export const socketTypes = ['string', 'number', 'boolean', 'string[]', 'number[]', 'boolean[]', 'object', 'object[]', 'null'] as const;
export type SocketType = (typeof socketTypes)[number];

/**
 * Whether an output of type `source` may feed an input of type `target`: the same type, or
 * anything into `object`. The actions service's rule (services/actions/src/domain/sockets.ts),
 * mirrored so the console does not bundle the server's zod schemas; socket-compatibility.test.ts
 * checks both agree on every pair.
 */
export function socketsCompatible(source: string, target: string): boolean {
  return source === target || target === 'object';
}
