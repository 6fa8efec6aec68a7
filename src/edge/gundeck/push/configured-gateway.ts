import type { Config } from '../../../shared/config/index.js';
import type { PushGateway } from './gateway.js';
import { snsGateway } from './sns-gateway.js';

const gateways = new WeakMap<Config, PushGateway | undefined>();

/** The configured gateway, made once per configuration (its secrets are checked with it: runtime.ts). */
export function pushGatewayOf(env: Env, config: Config): PushGateway | undefined {
  if (gateways.has(config)) return gateways.get(config);
  const aws = config.gundeck.aws;
  const gateway =
    aws === undefined
      ? undefined
      : snsGateway(aws, { accessKeyId: env.SNS_ACCESS_KEY_ID!, secretAccessKey: env.SNS_SECRET_ACCESS_KEY! });
  gateways.set(config, gateway);
  return gateway;
}
