export { COMPONENTS, fileOf, localDomain, type Config } from './components.js';
export { loadConfig, type ConfigTexts } from './load.js';
export { formatProblem, type Problem } from './problems.js';
export { namedFiles, type NamedFile, type NamedFileKind } from './named-files.js';
