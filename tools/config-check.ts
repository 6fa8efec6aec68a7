// npm run config:check [DIR]: prints every refusal of a configuration folder at once.
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';

const dir = configDir(process.argv[2]);
const result = loadConfig(readConfigTexts(dir));
for (const w of result.warnings) console.warn(`warning: ${formatProblem(w)}`);
if (result.ok) {
  console.log('ok');
} else {
  for (const p of result.problems) console.error(formatProblem(p));
  console.error(`${result.problems.length} problem(s) in ${dir}`);
  process.exit(1);
}
