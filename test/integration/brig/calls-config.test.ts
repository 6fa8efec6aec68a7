import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usernameRandom } from '../../../src/edge/brig/calling/credentials.js';
import { startLocalDns, type LocalDns } from '../../../tools/lib/local-dns.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, teamOwner, type TeamOwner } from '../../helpers/users.js';
import { getCallsConfig, getCallsConfigV2 } from '../../helpers/endpoints/brig.js';

const hmac = (secret: string, text: string) => createHmac('sha512', secret).update(text).digest('base64');

interface IceServer {
  urls: string[];
  username: string;
  credential: string;
}

/** Every entry has one URL and the same credential, which HMAC-SHA512 with the TURN secret proves. */
async function expectTurnCredentials(ice: IceServer[], user: string, secret: string, tokenTTL: number) {
  const now = Math.round(Date.now() / 1000);
  for (const s of ice) {
    expect(s.urls).toHaveLength(1);
    const m = /^d=(\d+)\.v=1\.k=0\.t=s\.r=([a-z]+)$/.exec(s.username);
    expect(m, s.username).not.toBeNull();
    expect(Math.abs(Number(m![1]) - (now + tokenTTL))).toBeLessThanOrEqual(5);
    expect(m![2]).toBe(await usernameRandom(user));
    expect(s.credential).toBe(hmac(secret, s.username));
  }
}

const V2 = [
  'turn:turn1.example.com:3478',
  'turn:turn2.example.com:3478?transport=udp',
  'turns:turn1.example.com:5349?transport=tcp',
  'turn:turn1.example.com:3478?transport=tcp',
];

describe('brig: calling configuration from files and SRV-discovered SFTs', () => {
  let b: TestBackend;
  let dns: LocalDns;
  let owner: TeamOwner;
  const dir = mkdtempSync(join(tmpdir(), 'calls-'));
  const sfts = ['sft1.sft.example.com', 'sft2.sft.example.com', 'sft3.sft.example.com'];

  beforeAll(async () => {
    dns = await startLocalDns();
    dns.setRecords('_sft._tcp.sft.example.com', { srv: sfts.map((target, i) => ({ target, port: 8443 + i })) });
    writeFileSync(join(dir, 'v1.txt'), 'not a turn server\nturn:[::1]:3478\n');
    writeFileSync(join(dir, 'v2.txt'), `${V2.join('\n')}\nstun:nope.example.com:3478\n`);
    writeFileSync(join(dir, 'turn-secret.txt'), 'turn-secret\n');
    writeFileSync(join(dir, 'sft-secret.txt'), 'sft-secret\n');
    b = await startEditedBackend([
      [
        'brig.yaml',
        ['turn'],
        {
          serversSource: 'files',
          servers: join(dir, 'v1.txt'),
          serversV2: join(dir, 'v2.txt'),
          secret: join(dir, 'turn-secret.txt'),
          tokenTTL: 600,
          configTTL: 1200,
        },
      ],
      [
        'brig.yaml',
        ['sft'],
        {
          sftBaseDomain: 'sft.example.com',
          sftListLength: 2,
          sftToken: { ttl: 120, secret: join(dir, 'sft-secret.txt') },
        },
      ],
      ['brig.yaml', ['multiSFT'], { enabled: true }],
      ['brig.yaml', ['optSettings', 'setSftListAllServers'], 'enabled'],
      ['brig.yaml', ['dnsOverHttpsUrl'], dns.dohUrl],
    ]);
    owner = await teamOwner(b.publicUrl, b.internalUrl);
  });
  afterAll(async () => {
    await b?.stop();
    await dns?.stop();
  });

  it('lists every TURN server with an HMAC credential, two SFTs and all of them with SFT credentials', async () => {
    const r = await getCallsConfigV2(b.publicUrl, owner.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ttl).toBe(1200);
    expect(r.body.ice_servers.map((s: IceServer) => s.urls[0]).sort()).toEqual([...V2].sort());
    await expectTurnCredentials(r.body.ice_servers, owner.id, 'turn-secret', 600);
    const urls = sfts.map((t, i) => `https://${t}:${8443 + i}`);
    expect(r.body.sft_servers).toHaveLength(2);
    for (const s of r.body.sft_servers) {
      expect(Object.keys(s)).toEqual(['urls']);
      expect(urls).toContain(s.urls[0]);
    }
    expect(r.body.sft_servers_all.map((s: IceServer) => s.urls)).toEqual(urls.map((u) => [u]));
    const now = Math.round(Date.now() / 1000);
    for (const s of r.body.sft_servers_all) {
      const m = /^d=(\d+)\.v=1\.k=0\.s=1\.r=([a-z]+)$/.exec(s.username);
      expect(m, s.username).not.toBeNull();
      expect(Math.abs(Number(m![1]) - (now + 120))).toBeLessThanOrEqual(5);
      expect(m![2]).toBe(await usernameRandom(owner.id));
      // The SFT secret is taken as the file holds it, newline and all.
      expect(s.credential).toBe(hmac('sft-secret\n', s.username));
    }
    expect(r.body.is_federating).toBe(true);
  });

  it('gives a user the same username part at every request', async () => {
    const [one, two] = await Promise.all([
      api(b.publicUrl, owner.token).get('/v7/calls/config/v2'),
      getCallsConfigV2(b.publicUrl, owner.token),
    ]);
    const r = (x: typeof one) => (x.body.ice_servers[0].username as string).split('.r=')[1];
    expect(r(one)).toBe(r(two));
  });

  it('spreads a limit over the transports: UDP first, then TLS, then TCP', async () => {
    const kinds = async (limit: number) => {
      const r = await getCallsConfigV2(b.publicUrl, owner.token, { limit });
      expect(r.status, r.text).toBe(200);
      return (r.body.ice_servers as IceServer[])
        .map(({ urls: [u] }) => (u!.startsWith('turns:') ? 'tls' : u!.endsWith('transport=tcp') ? 'tcp' : 'udp'))
        .sort();
    };
    expect(await kinds(1)).toEqual(['udp']);
    expect(await kinds(2)).toEqual(['tls', 'udp']);
    expect(await kinds(3)).toEqual(['tcp', 'tls', 'udp']);
    expect(await kinds(4)).toEqual(['tcp', 'tls', 'udp', 'udp']);
    expect(await kinds(10)).toHaveLength(4);
  });

  it('refuses a limit outside 1..10', async () => {
    for (const limit of ['0', '11', 'many'])
      expect(await getCallsConfigV2(b.publicUrl, owner.token, { limit })).toMatchObject({
        status: 400,
        body: wireError(400, 'bad-request'),
      });
  });

  it('marks SFT credentials not shared (s=0) for a team without conference calling', async () => {
    const feature = `/i/teams/${owner.team}/features/conferenceCalling`;
    expect((await call(b.internalUrl, `${feature}/unlocked`, { method: 'PUT' })).status).toBe(200);
    const off = await call(b.internalUrl, feature, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'disabled' }),
    });
    expect(off.status, off.text).toBe(200);
    const r = await getCallsConfigV2(b.publicUrl, owner.token);
    expect(r.body.sft_servers_all[0].username).toMatch(/\.s=0\./);
  });

  it('answers 500 when no TURN server is known (the v1 list has no valid line)', async () => {
    expect(await api(b.publicUrl, owner.token).get('/v7/calls/config')).toMatchObject({
      status: 500,
      body: wireError(500, 'internal-server-error'),
    });
  });

  it('serves /calls/config only until v8, and both only with a token', async () => {
    expect((await getCallsConfig(b.publicUrl, owner.token)).status).toBe(404);
    expect((await getCallsConfigV2(b.publicUrl, undefined)).status).toBe(401);
  });
});

describe('brig: calling configuration from TURN SRV records and a static SFT', () => {
  let b: TestBackend;
  let dns: LocalDns;
  let sft: Server;
  let sftAnswers = true;
  let sftUrl = '';
  let owner: TeamOwner;

  beforeAll(async () => {
    dns = await startLocalDns();
    dns.setRecords('_turn._udp.turn.example.com', {
      srv: [
        { target: 'udp1.turn.example.com.', port: 3478 },
        { target: 'drained.turn.example.com.', port: 3478, weight: 0 },
      ],
    });
    dns.setRecords('_turn._tcp.turn.example.com', { srv: [{ target: 'tcp1.turn.example.com.', port: 3478 }] });
    dns.setRecords('_turns._tcp.turn.example.com', { srv: [{ target: 'tls1.turn.example.com.', port: 5349 }] });
    dns.setRecords('udp1.turn.example.com', { a: ['192.0.2.7'] });
    sft = createServer((req, res) => {
      if (req.url === '/sft_servers_all.json' && sftAnswers)
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ sft_servers_all: ['https://sft-a.example.com:443', 'https://sft-b.example.com:443'] }));
      else res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => sft.listen(0, '127.0.0.1', resolve));
    sftUrl = `http://127.0.0.1:${(sft.address() as AddressInfo).port}`;
    b = await startEditedBackend([
      [
        'brig.yaml',
        ['turn'],
        {
          serversSource: 'dns',
          baseDomain: 'turn.example.com',
          secret: 'turn/secret.txt',
          tokenTTL: 60,
          configTTL: 30,
        },
      ],
      ['brig.yaml', ['optSettings', 'setSftStaticUrl'], sftUrl],
      ['brig.yaml', ['optSettings', 'setSftListAllServers'], 'enabled'],
      ['brig.yaml', ['dnsOverHttpsUrl'], dns.dohUrl],
    ]);
    owner = await teamOwner(b.publicUrl, b.internalUrl);
  });
  afterAll(async () => {
    await b?.stop();
    await dns?.stop();
    await new Promise((resolve) => sft?.close(resolve));
  });

  it('lists the TURN servers of the SRV records (not those of weight 0) and the static SFT', async () => {
    const r = await getCallsConfigV2(b.publicUrl, owner.token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ice_servers.map((s: IceServer) => s.urls[0]).sort()).toEqual([
      'turn:tcp1.turn.example.com:3478?transport=tcp',
      'turn:udp1.turn.example.com:3478?transport=udp',
      'turns:tls1.turn.example.com:5349?transport=tcp',
    ]);
    expect(r.body.sft_servers).toEqual([{ urls: [sftUrl] }]);
    expect(r.body.sft_servers_all).toEqual([
      { urls: ['https://sft-a.example.com:443'] },
      { urls: ['https://sft-b.example.com:443'] },
    ]);
    expect(r.body).not.toHaveProperty('is_federating');
  });

  it('leaves sft_servers_all out while the static SFT cannot list its servers', async () => {
    sftAnswers = false;
    try {
      const r = await getCallsConfigV2(b.publicUrl, owner.token);
      expect(r.status, r.text).toBe(200);
      expect(r.body).not.toHaveProperty('sft_servers_all');
      expect(r.body.sft_servers).toHaveLength(1);
    } finally {
      sftAnswers = true;
    }
  });

  it('gives old clients the UDP servers by address, without transport', async () => {
    const r = await api(b.publicUrl, owner.token).get('/v7/calls/config');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ice_servers: [expect.objectContaining({ urls: ['turn:192.0.2.7:3478'] })], ttl: 30 });
  });
});
