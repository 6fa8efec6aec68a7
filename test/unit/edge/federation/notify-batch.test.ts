import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FederatorClient, type Notification } from '../../../../src/edge/federation/client.js';
import { loadConfig } from '../../../../src/shared/config/index.js';
import { editedTexts } from '../../../helpers/config-files.js';

/**
 * A stand-in for the federator's internal face: remotes speak federation v2; `old.example` is a
 * wire-server (its galley answers 404 for the batch RPC), `new.example` answers batches as scripted.
 */
let server: Server;
const calls: string[] = [];
let batchAnswer: unknown;

function federator(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  const [, , domain, component, rpc] = (req.url ?? '').split('/');
  calls.push(`${domain} ${component}/${rpc}`);
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (rpc === 'api-version') return answer(200, { versions: [0, 1, 2] });
  if (rpc !== 'svc-notification-batch') return answer(200, {});
  if (domain === 'old.example')
    return answer(533, {
      code: 533,
      label: 'federation-remote-error',
      message: 'A remote federator failed with status code: 404',
      inner: { code: 404, label: 'no-endpoint', message: 'not found' },
    });
  return answer(200, batchAnswer);
}

const client = () => {
  const { port } = server.address() as AddressInfo;
  const config = loadConfig(
    editedTexts([
      ['federator.yaml', ['federatorInternal', 'host'], '127.0.0.1'],
      ['federator.yaml', ['federatorInternal', 'port'], port],
    ]),
  );
  if (!config.ok) throw new Error('config');
  return FederatorClient.of(config.config);
};

const note = (rpc: string, bundle: Notification['bundle'] = { 0: { n: rpc } }): Notification => ({
  component: 'galley',
  rpc,
  bundle,
});

beforeAll(async () => {
  server = createServer(federator);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('notification batches', () => {
  it('are not sent again, for ten minutes, to a remote without the batch RPC: one call each instead', async () => {
    expect(await client().notifyBatch('old.example', [note('on-a'), note('on-b')])).toBeUndefined();
    calls.length = 0;
    expect(await client().notifyBatch('old.example', [note('on-a')])).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("map the remote's outcomes to the notifications, ending at the first server error", async () => {
    batchAnswer = {
      outcomes: [
        { taken: true },
        { code: 400, label: 'bad-request', message: 'no' },
        { code: 500, label: 'x', message: 'y' },
      ],
    };
    const sent = [note('on-a'), note('on-old', { 3: {} }), note('on-b'), note('on-c'), note('on-d')];
    // on-old suits no version the remote speaks: it is not sent, and its outcome keeps its place
    expect(await client().notifyBatch('new.example', sent)).toEqual(['sent', 'unsuitable', 'refused', 'failed']);
    batchAnswer = { outcomes: [{ taken: true }, { taken: true }] };
    expect(await client().notifyBatch('new.example', [note('on-a'), note('on-old', { 3: {} }), note('on-b')])).toEqual([
      'sent',
      'unsuitable',
      'sent',
    ]);
  });
});
