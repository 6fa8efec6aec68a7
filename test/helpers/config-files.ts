/** Edited configurations for test backends (the helpers live in tools/, the benchmarks use them too). */
export { DELETE, defaultTexts, editedTexts, objectStoreEndpoint, type Edit } from '../../tools/lib/config-edit.js';
