// npm run -s mls:removal-keys [DIR]: prints the MLS_REMOVAL_KEYS value for a deployment
// (`npm run -s mls:removal-keys | npx wrangler secret put MLS_REMOVAL_KEYS`) from the PEM files
// galley's mlsPrivateKeyPaths names. Nothing is generated here: a missing key is refused.
import { resolve } from 'node:path';
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';
import { mlsRemovalKeys } from './lib/mls-removal-keys.js';

const result = loadConfig(readConfigTexts(configDir(process.argv[2])));
if (!result.ok) {
  for (const p of result.problems) console.error(formatProblem(p));
  process.exit(1);
}
try {
  const keys = mlsRemovalKeys(result.config, resolve(process.env.STATE_DIR ?? '.state'), false);
  if (keys === undefined) {
    console.error('MLS is not enabled (brig setEnableMLS) or galley names no mlsPrivateKeyPaths');
    process.exit(1);
  }
  process.stdout.write(keys);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
