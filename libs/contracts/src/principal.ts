import { z } from 'zod';

/**
 * Who is calling, as the gateway establishes it from the session. Services receive it only as a
 * signed header (see libs/kit principal-signature), never from raw client headers.
 */
export const principalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('anonymous') }),
  z.object({
    kind: z.literal('user'),
    userId: z.string().min(1),
    sessionId: z.string().min(1),
    platformOwner: z.boolean(),
    displayName: z.string().optional(),
    language: z.string().optional(),
    /** An access token made for these projects only: every other project is unknown to it (kit's ProjectAccess). */
    projectIds: z.array(z.string()).optional(),
  }),
]);

export type Principal = z.infer<typeof principalSchema>;
export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

export const anonymousPrincipal: Principal = Object.freeze({ kind: 'anonymous' });
