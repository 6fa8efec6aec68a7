import type { PageContext } from './context.js';
import { base64, DeviceCrypto, signatureOf } from './crypto.js';

/**
 * Registers this profile's device as a permanent client: Proteus prekeys made by core-crypto,
 * the session bound to the client (`POST /access?client_id=`), then MLS: the cipher suite from
 * `/feature-configs`, the signature key (`PUT /clients/{id}`) and key packages.
 */
export async function registerClient(
  ctx: PageContext,
  password: string,
  consumable: boolean,
): Promise<{ client: string; suite: number }> {
  const device = await DeviceCrypto.open(`wire@${ctx.me.id}`);
  ctx.device = device;
  const keys = await device.prekeys(10);
  const capabilities = ['legalhold-implicit-consent', ...(consumable ? ['consumable-notifications'] : [])];
  const registered = await ctx.api.api.client.postClient({
    class: 'desktop',
    cookie: `webapp@${ctx.me.id}@permanent@${Date.now()}`,
    label: 'Chrome',
    model: 'Chrome',
    type: 'permanent',
    password,
    capabilities,
    ...keys,
  } as never);
  ctx.client = registered.id;
  ctx.api.context!.clientId = registered.id;
  await ctx.api.transport.http.associateClientWithSession(registered.id);

  const features = (await ctx.api.api.teams.feature.getAllFeatures()) as {
    mls?: { config?: { defaultCipherSuite?: number } };
  };
  ctx.suite = features.mls?.config?.defaultCipherSuite ?? 1;
  await device.mlsInit(ctx.me, registered.id, ctx.suite, async (body) => {
    await ctx.api.api.conversation.postMlsCommitBundle(body);
  });
  const signature = signatureOf(ctx.suite);
  await ctx.api.api.client.putClient(registered.id, {
    mls_public_keys: { [signature.name]: base64(await device.signatureKey()) },
  } as never);
  const keyPackages = await device.keyPackages(3);
  await ctx.api.api.client.uploadMLSKeyPackages(registered.id, keyPackages.map(base64));
  return { client: registered.id, suite: ctx.suite };
}
