import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake knows of a platform endpoint. */
export interface FakeEndpoint {
  app: string;
  token: string;
  users: string[];
  enabled: boolean;
}

export interface Published {
  endpoint: string;
  /** The per-platform JSON object (MessageStructure=json), its values parsed. */
  message: Record<string, any>;
}

/** Platform applications the fake does not have (anything else exists). */
const MISSING_APP = /-unknown-app$/;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Checks a request's AWS Signature V4 against the secret, as AWS would: the canonical request of
 * the signed headers and the body, the scope's derived key. Written from the algorithm's
 * description, so the adapter's signing is checked by an implementation other than its own.
 */
function signedBy(req: IncomingMessage, body: Buffer, accessKeyId: string, secret: string): boolean {
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/sns\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  if (m === null || m[1] !== accessKeyId) return false;
  const [, , date, region, signedHeaders, signature] = m as unknown as string[];
  const names = signedHeaders!.split(';');
  const headers = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}\n`).join('');
  const canonical = ['POST', req.url ?? '/', '', headers, signedHeaders, sha256(body)].join('\n');
  const scope = `${date}/${region}/sns/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', req.headers['x-amz-date'], scope, sha256(canonical)].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, date!);
  for (const part of [region!, 'sns', 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

const xml = (action: string, result = '') =>
  `<${action}Response xmlns="http://sns.amazonaws.com/doc/2010-03-31/">${
    result === '' ? '' : `<${action}Result>${result}</${action}Result>`
  }<ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`;

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

class SnsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `Attributes.entry.N.key/value` form fields as a record. */
function attributes(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 1; form.has(`Attributes.entry.${i}.key`); i++)
    out[form.get(`Attributes.entry.${i}.key`)!] = form.get(`Attributes.entry.${i}.value`) ?? '';
  return out;
}

/**
 * Amazon SNS's mobile push API on loopback, as far as gundeck uses it (platform endpoints and
 * Publish), answering in SNS's query protocol. It refuses requests not signed with its
 * credentials, and records what is published; `disable` makes an endpoint refuse pushes, as
 * SNS does when the platform says the token is dead.
 */
export async function startFakeSns(region = 'eu-west-1', account = '123456789012') {
  const credentials = {
    accessKeyId: `AKID${randomBytes(6).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(20).toString('hex'),
  };
  const endpoints = new Map<string, FakeEndpoint>();
  const published: Published[] = [];
  const waiters: Array<{ match: (p: Published) => boolean; resolve: (p: Published) => void }> = [];
  const actions: string[] = [];
  /** Actions that fail while listed here, as SNS does when it is down. */
  const failing = new Set<string>();
  let unsigned = 0;

  const handle = (action: string, form: URLSearchParams): string => {
    switch (action) {
      case 'CreatePlatformEndpoint': {
        const app = form.get('PlatformApplicationArn')!;
        const token = form.get('Token') ?? '';
        const user = form.get('CustomUserData') ?? '';
        const appPath = /^arn:aws:sns:[^:]+:\d{12}:app\/(.+)$/.exec(app)?.[1];
        if (appPath === undefined || MISSING_APP.test(appPath))
          throw new SnsError(404, 'NotFound', 'PlatformApplication does not exist');
        if (appPath.startsWith('APNS') && !/^[0-9a-f]{64}$/i.test(token))
          throw new SnsError(
            400,
            'InvalidParameter',
            'Invalid parameter: Token Reason: iOS device tokens must be 64 hexadecimal characters',
          );
        for (const [arn, e] of endpoints)
          if (e.app === app && e.token === token) {
            if (e.users.join(':') === user && e.enabled) return xml(action, `<EndpointArn>${arn}</EndpointArn>`);
            throw new SnsError(
              400,
              'InvalidParameter',
              `Invalid parameter: Token Reason: Endpoint ${arn} already exists with the same Token, but different attributes.`,
            );
          }
        const arn = `arn:aws:sns:${region}:${account}:endpoint/${appPath}/${randomUUID()}`;
        endpoints.set(arn, { app, token, users: user.split(':').filter(Boolean), enabled: true });
        return xml(action, `<EndpointArn>${arn}</EndpointArn>`);
      }
      case 'GetEndpointAttributes': {
        const e = endpoints.get(form.get('EndpointArn')!);
        if (e === undefined) throw new SnsError(404, 'NotFound', 'Endpoint does not exist');
        const entries = { Token: e.token, CustomUserData: e.users.join(':'), Enabled: String(e.enabled) };
        return xml(
          action,
          `<Attributes>${Object.entries(entries)
            .map(([k, v]) => `<entry><key>${k}</key><value>${xmlText(v)}</value></entry>`)
            .join('')}</Attributes>`,
        );
      }
      case 'SetEndpointAttributes': {
        const e = endpoints.get(form.get('EndpointArn')!);
        if (e === undefined) throw new SnsError(404, 'NotFound', 'Endpoint does not exist');
        const a = attributes(form);
        if (a.Token !== undefined) e.token = a.Token;
        if (a.CustomUserData !== undefined) e.users = a.CustomUserData.split(':').filter(Boolean);
        if (a.Enabled !== undefined) e.enabled = a.Enabled === 'true';
        return xml(action);
      }
      case 'DeleteEndpoint':
        endpoints.delete(form.get('EndpointArn')!);
        return xml(action);
      case 'Publish': {
        const arn = form.get('TargetArn')!;
        const e = endpoints.get(arn);
        if (e === undefined) throw new SnsError(400, 'InvalidParameter', 'Invalid parameter: TargetArn');
        if (!e.enabled) throw new SnsError(400, 'EndpointDisabled', 'Endpoint is disabled');
        if (form.get('MessageStructure') !== 'json') throw new SnsError(400, 'InvalidParameter', 'expected json');
        const outer = JSON.parse(form.get('Message')!) as Record<string, string>;
        const message = Object.fromEntries(Object.entries(outer).map(([k, v]) => [k, JSON.parse(v)]));
        const p = { endpoint: arn, message };
        published.push(p);
        const i = waiters.findIndex((w) => w.match(p));
        if (i >= 0) waiters.splice(i, 1)[0]!.resolve(p);
        return xml(action, `<MessageId>${randomUUID()}</MessageId>`);
      }
      default:
        throw new SnsError(400, 'InvalidAction', `no action ${action}`);
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const form = new URLSearchParams(body.toString('utf8'));
      const action = form.get('Action') ?? '';
      let status = 200;
      let text: string;
      try {
        if (!signedBy(req, body, credentials.accessKeyId, credentials.secretAccessKey)) {
          unsigned++;
          throw new SnsError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match');
        }
        actions.push(action);
        if (failing.has(action)) throw new SnsError(500, 'InternalError', 'SNS is unavailable');
        text = handle(action, form);
      } catch (err) {
        if (!(err instanceof SnsError)) throw err;
        status = err.status;
        text = `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${err.code}</Code><Message>${xmlText(err.message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;
      }
      res.writeHead(status, { 'content-type': 'text/xml' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    region,
    account,
    credentials,
    endpoints,
    published,
    actions,
    failing,
    unsigned: () => unsigned,
    /** The next push (or one already made) that matches. */
    nextPublish(match: (p: Published) => boolean = () => true, timeoutMs = 10_000): Promise<Published> {
      const seen = published.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching push published')), timeoutMs);
        waiters.push({
          match,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
    disable(arn: string) {
      endpoints.get(arn)!.enabled = false;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeSns = Awaited<ReturnType<typeof startFakeSns>>;
