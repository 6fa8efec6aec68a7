import { describe, expect, it } from 'vitest';
import { parseConfigurator, proxySecrets } from '../../../../src/shared/config/proxy-secrets.js';

describe("the proxy's secrets file (wire's Data.Configurator syntax)", () => {
  it('reads groups, top-level dotted names, comments and escapes', () => {
    const text = `# keys
secrets {
  giphy = "g" # inline comment
  spotify = "Basic \\"quoted\\""
  nested { deeper = "d" }
}
secrets.youtube = "y"
`;
    expect(Object.fromEntries(parseConfigurator(text))).toEqual({
      'secrets.giphy': 'g',
      'secrets.spotify': 'Basic "quoted"',
      'secrets.nested.deeper': 'd',
      'secrets.youtube': 'y',
    });
  });

  it('names what is wrong', () => {
    expect(() => parseConfigurator('secrets { giphy = "g"')).toThrow('group secrets is not closed');
    expect(() => parseConfigurator('secrets { giphy "g" }')).toThrow('expected a group or name = "value"');
    expect(() => parseConfigurator('}')).toThrow('unbalanced }');
    expect(() => parseConfigurator('giphy = "unterminated')).toThrow('unexpected text');
    expect(() => proxySecrets('secrets { giphy = "g" }')).toThrow('secrets.youtube is missing');
  });
});
