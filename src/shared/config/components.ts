import type { z } from 'zod';
import { brigConfig } from './schemas/brig.js';
import { cargoholdConfig } from './schemas/cargohold.js';
import { federatorConfig } from './schemas/federator.js';
import { galleyConfig } from './schemas/galley.js';
import { gundeckConfig } from './schemas/gundeck.js';
import { nginzConfig } from './schemas/nginz.js';
import { backgroundWorkerConfig, cannonConfig, proxyConfig, sparConfig } from './schemas/small-components.js';

/** One YAML file per component, `config/<component>.yaml`. */
export const COMPONENT_SCHEMAS = {
  brig: brigConfig,
  galley: galleyConfig,
  cargohold: cargoholdConfig,
  gundeck: gundeckConfig,
  cannon: cannonConfig,
  spar: sparConfig,
  proxy: proxyConfig,
  federator: federatorConfig,
  'background-worker': backgroundWorkerConfig,
  nginz: nginzConfig,
} as const;

export type Component = keyof typeof COMPONENT_SCHEMAS;
export const COMPONENTS = Object.keys(COMPONENT_SCHEMAS) as Component[];

export type Config = { [C in Component]: z.output<(typeof COMPONENT_SCHEMAS)[C]> };

export function fileOf(component: Component): string {
  return `${component}.yaml`;
}

/** This backend's domain: brig's `setFederationDomain`, which every component names its users and conversations by. */
export const localDomain = (config: Config): string => config.brig.optSettings.setFederationDomain;
