// npm run -s config:files [DIR]: prints the SVC_FILES value for a deployment
// (`npm run -s config:files | npx wrangler secret put SVC_FILES`): the files the configuration names
// (TURN lists, secrets, signing keys), relative paths taken from STATE_DIR (default .state).
// Nothing is generated here: a missing file is refused.
import { resolve } from 'node:path';
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';
import { configFiles } from './lib/config-files.js';

const result = loadConfig(readConfigTexts(configDir(process.argv[2])));
if (!result.ok) {
  for (const p of result.problems) console.error(formatProblem(p));
  process.exit(1);
}
try {
  process.stdout.write(configFiles(result.config, resolve(process.env.STATE_DIR ?? '.state'), false));
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
