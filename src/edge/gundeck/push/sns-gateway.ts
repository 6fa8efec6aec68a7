import {
  CreatePlatformEndpointCommand,
  DeleteEndpointCommand,
  GetEndpointAttributesCommand,
  PublishCommand,
  SetEndpointAttributesCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import type { GundeckConfig } from '../../../shared/config/schemas/gundeck.js';
import type { PushAddress, PushToken } from '../../../shared/notifications/native-push.js';
import { ApiError } from '../../api/errors/api-error.js';
import { gundeckErrors } from '../../api/errors/gundeck.js';
import type { PushGateway } from './gateway.js';

type AwsConfig = NonNullable<GundeckConfig['aws']>;

/** SNS keeps an endpoint's users in its CustomUserData, `:`-separated, at most this long. */
const MAX_USER_DATA = 2048;
const ATTEMPTS = 3;

/** The error's SNS code (`EndpointDisabled`, `NotFound`, ...), when SNS answered with one. */
function codeOf(err: unknown): string | undefined {
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.replace(/Exception$/, '') : undefined;
}

const messageOf = (err: unknown) => String((err as { message?: unknown }).message ?? '');

/** The endpoint SNS names when a token is registered already (under other users). */
const EXISTING = /Endpoint (arn:aws:sns:\S+) already exists with the same [Tt]oken/;

/**
 * Native push through Amazon SNS, as wire's gundeck uses it: one platform endpoint per device
 * token, its users in the endpoint's CustomUserData, pushes published as JSON per platform.
 */
export function snsGateway(aws: AwsConfig, credentials: { accessKeyId: string; secretAccessKey: string }): PushGateway {
  const sns = new SNSClient({
    region: aws.region,
    credentials,
    ...(aws.snsEndpoint === undefined ? {} : { endpoint: aws.snsEndpoint }),
    maxAttempts: 2,
  });
  const appArn = (t: PushToken) => `arn:aws:sns:${aws.region}:${aws.account}:app/${t.transport}/${aws.arnEnv}-${t.app}`;

  const usersOf = async (endpoint: string): Promise<string[] | undefined> => {
    try {
      const got = await sns.send(new GetEndpointAttributesCommand({ EndpointArn: endpoint }));
      return (got.Attributes?.CustomUserData ?? '').split(':').filter((u) => u !== '');
    } catch (err) {
      if (codeOf(err) === 'NotFound') return undefined;
      throw err;
    }
  };

  /** Adds the user to an endpoint that has the token already; false when it is gone meanwhile. */
  const join = async (user: string, t: PushToken, endpoint: string): Promise<boolean> => {
    const users = await usersOf(endpoint);
    if (users === undefined) return false;
    const data = [...new Set([...users, user])].join(':');
    if (data.length > MAX_USER_DATA) throw new ApiError(gundeckErrors.metadataTooLong);
    try {
      await sns.send(
        new SetEndpointAttributesCommand({
          EndpointArn: endpoint,
          Attributes: { Token: t.token, CustomUserData: data, Enabled: 'true' },
        }),
      );
      return true;
    } catch (err) {
      if (codeOf(err) === 'NotFound') return false;
      throw err;
    }
  };

  const create = async (user: string, t: PushToken): Promise<{ arn: string } | { existing: string }> => {
    try {
      const made = await sns.send(
        new CreatePlatformEndpointCommand({
          PlatformApplicationArn: appArn(t),
          Token: t.token,
          CustomUserData: user,
          Attributes: { Enabled: 'true' },
        }),
      );
      return { arn: made.EndpointArn! };
    } catch (err) {
      const code = codeOf(err);
      const existing = EXISTING.exec(messageOf(err))?.[1];
      if (code === 'InvalidParameter' && existing !== undefined) return { existing };
      if (code === 'NotFound') throw new ApiError(gundeckErrors.appNotFound);
      if (code === 'InvalidParameter' && /token/i.test(messageOf(err)))
        throw new ApiError(gundeckErrors.invalidPushToken);
      throw err;
    }
  };

  return {
    async register(user, t) {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const made = await create(user, t);
        if ('arn' in made) return made.arn;
        if (await join(user, t, made.existing)) return made.existing;
      }
      throw new ApiError(gundeckErrors.pushGatewayInconsistent);
    },

    async publish(address: PushAddress, notice: string) {
      try {
        await sns.send(
          new PublishCommand({
            TargetArn: address.endpoint,
            MessageStructure: 'json',
            Message: JSON.stringify({ [address.transport]: notice }),
          }),
        );
        return 'sent';
      } catch (err) {
        const code = codeOf(err);
        if (code === 'EndpointDisabled' || code === 'NotFound') return 'gone';
        if (code === 'InvalidParameter' && /TargetArn/.test(messageOf(err))) return 'gone';
        throw err;
      }
    },

    async release(user, endpoint) {
      const users = await usersOf(endpoint);
      if (users === undefined) return;
      const rest = users.filter((u) => u !== user);
      try {
        if (rest.length === 0) await sns.send(new DeleteEndpointCommand({ EndpointArn: endpoint }));
        else
          await sns.send(
            new SetEndpointAttributesCommand({ EndpointArn: endpoint, Attributes: { CustomUserData: rest.join(':') } }),
          );
      } catch (err) {
        if (codeOf(err) !== 'NotFound') throw err;
      }
    },
  };
}
