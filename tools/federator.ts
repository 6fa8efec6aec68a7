// npm run federator: the federator alone, as a deployment runs it on a host of its own beside the
// workers on Cloudflare (README, "Deploying"). It reads CONFIG_DIR's files as npm start does and
// binds federator.yaml's ports or fails. The worker's internal ingress is federator.yaml's
// `workerInternal`, else this machine's (INTERNAL_PORT, as npm start takes it);
// FEDERATOR_INTERNAL_TOKEN is the secret it shares with the worker.
import { startFederator } from '../src/federator-node/federator.js';
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';
import { onShutdown } from './lib/shutdown.js';
import { federatorOptions } from './lib/sidecar.js';

const dir = configDir();
const checked = loadConfig(readConfigTexts(dir));
for (const w of checked.warnings) console.warn(`warning: ${formatProblem(w)}`);
if (!checked.ok) {
  for (const p of checked.problems) console.error(formatProblem(p));
  console.error(`refusing to start: ${checked.problems.length} configuration problem(s) in ${dir}`);
  process.exit(1);
}
const { config } = checked;
const token = process.env.FEDERATOR_INTERNAL_TOKEN || undefined;
const workerInternal = new URL(
  config.federator.workerInternal ?? `http://127.0.0.1:${Number(process.env.INTERNAL_PORT ?? 8081)}`,
);
const options = await federatorOptions(config, { ports: 'configured', token });
const { internal, federation } = options;
if (token === undefined && !['127.0.0.1', '::1', 'localhost'].includes(internal.host))
  console.warn(
    `warning: the internal face listens on ${internal.host} without FEDERATOR_INTERNAL_TOKEN: ` +
      'whoever reaches it can call remotes and integrations in this backend’s name',
  );
const federator = await startFederator({ ...options, workerInternal });
onShutdown(() => federator.stop());

console.log(`config    ${dir}`);
console.log(
  `federator ${options.domain}: internal ${internal.host}:${federator.internalUrl.port}` +
    (token === undefined ? '' : ' (bearer token required)') +
    (federation === undefined
      ? '   (federation off: integrations only)'
      : `, external ${federation.external.host}:${federator.externalPort}`),
);
if (federation !== undefined) console.log(`worker    ${workerInternal.origin}   (its internal ingress)`);
console.log('ready');
