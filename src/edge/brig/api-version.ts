import { z } from '@hono/zod-openapi';
import { API_VERSIONS, enabledVersions } from '../../shared/api-version.js';
import { type Config, localDomain } from '../../shared/config/index.js';
import { endpoint } from '../api/endpoint.js';

const versionNumber = z
  .int()
  .refine((n) => (API_VERSIONS as readonly number[]).includes(n))
  .openapi('VersionNumber');

const versionInfo = z
  .object({
    supported: z.array(versionNumber),
    development: z.array(versionNumber),
    federation: z.boolean(),
    domain: z.string(),
  })
  .openapi('VersionInfo');

type VersionInfo = z.infer<typeof versionInfo>;

// The answer depends on the configuration only: made once per configuration.
const answers = new WeakMap<Config, VersionInfo>();

function answerFor(config: Config): VersionInfo {
  let answer = answers.get(config);
  if (answer === undefined) {
    const { brig } = config;
    const { supported, development } = enabledVersions(brig.optSettings.setDisabledAPIVersions);
    answer = {
      supported,
      development,
      federation: brig.enableFederation,
      domain: localDomain(config),
    };
    answers.set(config, answer);
  }
  return answer;
}

/** `GET /api-version`: the enabled versions (disabled ones are in neither list). */
export const getApiVersion = endpoint(
  {
    name: 'get-version',
    auth: 'none',
    method: 'get',
    path: '/api-version',
    responses: {
      200: {
        description: 'Supported and development versions',
        content: { 'application/json': { schema: versionInfo } },
      },
    },
  },
  (c) => c.json(answerFor(c.get('config')), 200),
);
