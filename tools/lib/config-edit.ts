import { type Document, parseDocument } from 'yaml';
import type { ConfigTexts } from '../../src/shared/config/index.js';
import { configDir, readConfigTexts } from './config-dir.js';

export const DELETE = Symbol('delete');
export type Edit = [file: string, path: (string | number)[], value: unknown];

/** The shipped configuration (config/), as texts. */
export function defaultTexts(): ConfigTexts {
  return readConfigTexts(configDir('config'));
}

/** The shipped configuration with some keys set or deleted (comments kept). */
export function editedTexts(edits: Edit[], base: ConfigTexts = defaultTexts()): ConfigTexts {
  const docs = new Map<string, Document>();
  for (const [file, path, value] of edits) {
    const doc = docs.get(file) ?? parseDocument(base[file] ?? '{}');
    docs.set(file, doc);
    if (value === DELETE) doc.deleteIn(path);
    else doc.setIn(path, doc.createNode(value));
  }
  const out = { ...base };
  for (const [file, doc] of docs) out[file] = doc.toString();
  return out;
}

/** Points cargohold at an object store other than the one the shipped file names. */
export const objectStoreEndpoint = (endpoint: string): Edit => ['cargohold.yaml', ['objstore', 'endpoint'], endpoint];

/** Signs cargohold's download URLs for this endpoint (where browsers fetch the bytes). */
export const downloadEndpoint = (endpoint: string): Edit => [
  'cargohold.yaml',
  ['objstore', 'downloadEndpoint'],
  endpoint,
];
