import { z } from '@hono/zod-openapi';

/** Schemas many components share: ids, qualified ids, the JSON body helper. */
export const uuid = z.uuid().openapi('UUID');

export const domain = z.string().min(1).max(253).openapi('Domain');

export const qualifiedUserId = z.object({ id: uuid, domain }).openapi('Qualified_UserId');
export type QualifiedId = z.infer<typeof qualifiedUserId>;

/** `{ content: { 'application/json': { schema } } }` for request bodies and responses. */
export const json = <S extends z.ZodType>(schema: S) => ({ content: { 'application/json': { schema } } });

/** A required JSON request body. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({ body: { required: true, ...json(schema) } });

/** Wire's locale: a language, optionally with a country (`en`, `de-CH`). */
export const locale = z
  .string()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z]{2})?$/, 'not a locale such as en or de-CH')
  .openapi('Locale');
