// brig's get-not-fully-connected-backends, declared with the platform because galley calls it too:
// of the backends a conversation would join, those the answering backend does not federate with.
import { z } from '@hono/zod-openapi';
import { rpcContract } from './contract.js';

export const getNotFullyConnectedBackendsRpc = rpcContract({
  component: 'brig',
  rpc: 'get-not-fully-connected-backends',
  request: z.object({ domains: z.array(z.string()) }).openapi('DomainSet'),
  response: z.object({ non_connected_backends: z.array(z.string()) }).openapi('NonConnectedBackends'),
});
