import type { Edit } from './config-files.js';

/** disabledAPIVersions set to the same value in every file that carries it. */
export function disabledEverywhere(value: string[]): Edit[] {
  return [
    ['brig.yaml', ['optSettings', 'setDisabledAPIVersions'], value],
    ['galley.yaml', ['settings', 'disabledAPIVersions'], value],
    ['cargohold.yaml', ['settings', 'disabledAPIVersions'], value],
    ['gundeck.yaml', ['settings', 'disabledAPIVersions'], value],
    ['cannon.yaml', ['disabledAPIVersions'], value],
    ['proxy.yaml', ['disabledAPIVersions'], value],
    ['spar.yaml', ['disabledAPIVersions'], value],
  ];
}
