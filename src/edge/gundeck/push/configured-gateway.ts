import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import type { PushGateway } from './gateway.js';
import { snsGateway } from './sns-gateway.js';

const gateways = new WeakMap<Config, PushGateway | undefined>();

/** The configured gateway, made once per configuration. */
export function pushGatewayOf(env: Env, config: Config): PushGateway | undefined {
  if (gateways.has(config)) return gateways.get(config);
  const aws = config.gundeck.aws;
  let gateway: PushGateway | undefined;
  if (aws !== undefined) {
    const { SNS_ACCESS_KEY_ID: accessKeyId, SNS_SECRET_ACCESS_KEY: secretAccessKey } = env;
    if (!accessKeyId || !secretAccessKey)
      throw new ApiError(
        commonErrors.invalidConfiguration,
        'Push credentials (SNS_ACCESS_KEY_ID, SNS_SECRET_ACCESS_KEY) are not set',
      );
    gateway = snsGateway(aws, { accessKeyId, secretAccessKey });
  }
  gateways.set(config, gateway);
  return gateway;
}
