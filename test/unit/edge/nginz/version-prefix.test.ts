import { describe, expect, it } from 'vitest';
import { servedWhenDisabled, splitVersion } from '../../../../src/edge/nginz/version-prefix.js';
import { enabledVersions } from '../../../../src/shared/api-version.js';

describe('version prefix', () => {
  it.each([
    ['/api-version', { kind: 'unversioned', path: '/api-version' }],
    ['/v3/api-version', { kind: 'versioned', version: 3, path: '/api-version' }],
    ['/v9', { kind: 'versioned', version: 9, path: '/' }],
    ['/v10/api-version', { kind: 'unknown-version', word: 'v10' }],
    ['/v/api-version', { kind: 'unknown-version', word: 'v' }],
    ['/v1x/api-version', { kind: 'unversioned', path: '/v1x/api-version' }],
    ['/vanity', { kind: 'unversioned', path: '/vanity' }],
    ['/v2/i/status', { kind: 'versioned-internal' }],
    ['/v2/api-internal/other', { kind: 'versioned-internal' }],
    ['/v2/api-internal/swagger.json', { kind: 'versioned', version: 2, path: '/api-internal/swagger.json' }],
  ])('%s', (path, expected) => expect(splitVersion(path)).toEqual(expected));

  it('serves only documentation for disabled versions', () => {
    expect(servedWhenDisabled('/api/swagger.json')).toBe(true);
    expect(servedWhenDisabled('/api/swagger-ui')).toBe(true);
    expect(servedWhenDisabled('/api-internal/swagger-ui')).toBe(true);
    expect(servedWhenDisabled('/api-version')).toBe(false);
    expect(servedWhenDisabled('/api/swagger.jsonx')).toBe(false);
  });
});

describe('enabled versions', () => {
  it('development disables the development versions only', () => {
    expect(enabledVersions(['development'])).toEqual({ supported: [0, 1, 2, 3, 4, 5, 6, 7, 8], development: [] });
  });
  it('[] enables everything', () => {
    expect(enabledVersions([])).toEqual({ supported: [0, 1, 2, 3, 4, 5, 6, 7, 8], development: [9] });
  });
  it('explicit versions leave both lists', () => {
    expect(enabledVersions([2, 9])).toEqual({ supported: [0, 1, 3, 4, 5, 6, 7, 8], development: [] });
  });
});
