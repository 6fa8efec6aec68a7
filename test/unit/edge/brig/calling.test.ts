import { describe, expect, it } from 'vitest';
import {
  base26,
  credentialOf,
  sftSecretKey,
  turnSecretKey,
  usernameRandom,
} from '../../../../src/edge/brig/calling/credentials.js';
import {
  limitServers,
  parseTurnServers,
  parseTurnUri,
  renderTurnUri,
} from '../../../../src/edge/brig/calling/turn-uri.js';

describe('TURN URIs', () => {
  it('reads turn and turns URIs with a name or an IPv4 address, and renders them back', () => {
    for (const text of ['turn:10.0.0.1:3478', 'turns:turn.example.com:5349?transport=tcp', 'turn:a.b:1?transport=udp'])
      expect(renderTurnUri(parseTurnUri(text)!)).toBe(text);
  });

  it('refuses what is not one', () => {
    for (const text of [
      'stun:a.example.com:3478',
      'turn:[::1]:3478',
      'turn:a.example.com',
      'turn:300.1.1.1:1',
      'turn:a:70000',
      'turn:a:1?transport=sctp',
    ])
      expect(parseTurnUri(text), text).toBeUndefined();
  });

  it('reads a servers file line by line, leaving out bad lines', () => {
    expect(parseTurnServers('turn:a.example.com:1\n\nnonsense\nturn:b.example.com:2\n').map(renderTurnUri)).toEqual([
      'turn:a.example.com:1',
      'turn:b.example.com:2',
    ]);
  });

  it('limits in rounds of UDP, TLS and TCP, filling up from the rest', () => {
    const list = [
      'turn:u1:1',
      'turn:u2:1?transport=udp',
      'turn:t1:1?transport=tcp',
      'turns:s1:1?transport=tcp',
      'turns:x:1',
    ].map((t) => parseTurnUri(t)!);
    const pick = (n: number) => limitServers(list, n).map(renderTurnUri);
    expect(pick(1)).toEqual(['turn:u1:1']);
    expect(pick(3)).toEqual(['turn:u1:1', 'turns:s1:1?transport=tcp', 'turn:t1:1?transport=tcp']);
    expect(pick(4)).toEqual([...pick(3), 'turn:u2:1?transport=udp']);
    // turns: without transport belongs to no round: it only fills up
    expect(pick(10)).toEqual([...pick(4), 'turns:x:1']);
  });
});

describe('TURN and SFT credentials', () => {
  it('writes numbers in base 26 with a–z', () => {
    expect(base26(0n)).toBe('a');
    expect(base26(26n)).toBe('ba');
    expect(base26(38919n)).toBe('cfox');
  });

  it('derives the username part from the user id alone', async () => {
    const user = '6f0e3a6c-5f3b-4c5a-9d1e-2b7a8c9d0e1f';
    expect(await usernameRandom(user)).toBe(await usernameRandom(user));
    expect(await usernameRandom(user)).not.toBe(await usernameRandom('6f0e3a6c-5f3b-4c5a-9d1e-2b7a8c9d0e10'));
    // computed apart (Python: SHA-256 of the UUID's bytes, first 16 little-endian, base 26)
    expect(await usernameRandom(user)).toBe('bbfpuhijqygmnppffyujftivgeou');
  });

  it('signs with HMAC-SHA512 in padded base64', async () => {
    const c = await credentialOf(turnSecretKey('secret\n'), 'd=1.v=1.k=0.t=s.r=abc');
    expect(c).toHaveLength(88);
    expect(c.endsWith('==')).toBe(true);
    // TURN's secret file is stripped, the SFT token's is taken as it is (as wire's brig reads them)
    expect(await credentialOf(sftSecretKey('secret'), 'd=1.v=1.k=0.t=s.r=abc')).toBe(c);
    expect(await credentialOf(sftSecretKey('secret\n'), 'd=1.v=1.k=0.t=s.r=abc')).not.toBe(c);
  });
});
