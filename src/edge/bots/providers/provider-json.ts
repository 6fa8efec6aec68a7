import { z } from '@hono/zod-openapi';
import { isValidEmail } from '../../brig/face.js';
import type { ProviderRow, ServiceRow } from './provider-store.js';

/** Every service tag, in wire's order (`GET /services/tags`). */
export const SERVICE_TAGS = [
  'audio',
  'books',
  'business',
  'design',
  'education',
  'entertainment',
  'finance',
  'fitness',
  'food-drink',
  'games',
  'graphics',
  'health',
  'integration',
  'lifestyle',
  'media',
  'medical',
  'movies',
  'music',
  'news',
  'photography',
  'poll',
  'productivity',
  'quiz',
  'rating',
  'shopping',
  'social',
  'sports',
  'travel',
  'tutorial',
  'video',
  'weather',
] as const;
export const serviceTag = z.enum(SERVICE_TAGS).openapi('ServiceTag');
/** 1 to 3 tags, kept as a sorted set. */
export const serviceTags = z
  .array(serviceTag)
  .min(1)
  .max(3)
  .transform((ts) => [...new Set(ts)].sort());

export const httpsUrl = z.url({ protocol: /^https$/ }).openapi('HttpsUrl');
export const password = z.string().min(6).max(1024);
export const email = z.string().refine(isValidEmail, 'not an email address');
const asset = z.looseObject({ type: z.literal('image'), key: z.string() });

export const providerJson = z
  .object({ id: z.uuid(), name: z.string(), email: z.string(), url: z.string(), description: z.string() })
  .openapi('Provider');

export const toProviderJson = (p: ProviderRow) => ({
  id: p.id,
  name: p.name,
  email: p.email ?? p.pendingEmail ?? '',
  url: p.url,
  description: p.description,
});

export const newService = z
  .object({
    name: z.string().min(1).max(128),
    summary: z.string().min(1).max(128),
    description: z.string().min(1).max(1024),
    base_url: httpsUrl,
    public_key: z.string().openapi('ServiceKeyPEM'),
    auth_token: z
      .string()
      .regex(/^[A-Za-z0-9_-]+=*$/)
      .optional(),
    assets: z.array(asset).default([]),
    tags: serviceTags,
  })
  .openapi('NewService');

export const serviceJson = z.looseObject({ id: z.uuid(), enabled: z.boolean() }).openapi('Service');
export const serviceProfileJson = z
  .looseObject({ id: z.uuid(), provider: z.uuid(), enabled: z.boolean() })
  .openapi('ServiceProfile');
export const serviceProfilePage = z
  .object({ has_more: z.boolean(), services: z.array(serviceProfileJson) })
  .openapi('ServiceProfilePage');

/** The provider's own view of a service: with its connection (URL, tokens, keys). */
export const toServiceJson = (s: ServiceRow) => ({
  id: s.id,
  name: s.name,
  summary: s.summary,
  description: s.description,
  base_url: s.baseUrl,
  auth_tokens: s.authTokens,
  public_keys: s.publicKeys.map((k) => ({ type: 'rsa', size: k.size, pem: k.pem })),
  assets: s.assets,
  tags: s.tags,
  enabled: s.enabled,
});

/** What users see of a service. */
export const toServiceProfile = (s: ServiceRow) => ({
  id: s.id,
  provider: s.provider,
  name: s.name,
  summary: s.summary,
  description: s.description,
  assets: s.assets,
  tags: s.tags,
  enabled: s.enabled,
});
