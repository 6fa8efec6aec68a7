export { COMPONENTS, fileOf, type Component, type Config } from './components.js';
export { loadConfig, type ConfigTexts, type LoadResult } from './load.js';
export { formatProblem, type Problem } from './problems.js';
