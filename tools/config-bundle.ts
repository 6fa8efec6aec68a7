// npm run config:bundle [DIR]: prints the SVC_CONFIG value for a deployment
// (`npm run -s config:bundle | npx wrangler secret put SVC_CONFIG`), after validating it.
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';

const texts = readConfigTexts(configDir(process.argv[2]));
const result = loadConfig(texts);
if (!result.ok) {
  for (const p of result.problems) console.error(formatProblem(p));
  process.exit(1);
}
process.stdout.write(JSON.stringify(texts));
