import { describe, expect, it, vi } from 'vitest';
import { runtimeConfigSchema } from '#contracts/config.ts';
import { ConfigError, loadConfig, parseRuntimeConfig } from '#web/lib/config.ts';
import { testConfig } from './support/config.ts';

const variants: [string, unknown][] = [
  ['the full config', testConfig],
  [
    'a config without the optional addresses',
    { ...testConfig, cognitoEndpoint: undefined, marketingSiteUrl: undefined },
  ],
  ['a pool id without an underscore', { ...testConfig, userPoolId: 'useast2AbCdEf' }],
  ['an empty product name', { ...testConfig, productName: '' }],
  ['a missing client id', { ...testConfig, userPoolClientId: undefined }],
  ['a GraphQL address that is not a URL', { ...testConfig, graphqlUrl: 'graphql' }],
  ['a missing function address', { ...testConfig, functions: { ...testConfig.functions, mfa: undefined } }],
  ['no functions at all', { ...testConfig, functions: undefined }],
  ['a number for the region', { ...testConfig, region: 2 }],
  ['a bad optional endpoint', { ...testConfig, cognitoEndpoint: 'not a url' }],
  ['session limits', { ...testConfig, session: { idleTimeoutMinutes: 15, absoluteSessionMinutes: 480 } }],
  ['a session without its lifetime', { ...testConfig, session: { idleTimeoutMinutes: 15 } }],
  ['a fractional idle timeout', { ...testConfig, session: { idleTimeoutMinutes: 1.5, absoluteSessionMinutes: 480 } }],
  ['a zero session lifetime', { ...testConfig, session: { idleTimeoutMinutes: 15, absoluteSessionMinutes: 0 } }],
  ['session limits as text', { ...testConfig, session: { idleTimeoutMinutes: '15', absoluteSessionMinutes: '480' } }],
  ['a session that is not an object', { ...testConfig, session: 30 }],
  ['remembered devices on', { ...testConfig, rememberDevices: true }],
  ['remembered devices off', { ...testConfig, rememberDevices: false }],
  ['remembered devices as text', { ...testConfig, rememberDevices: 'true' }],
  ['passkeys on', { ...testConfig, passkeys: true }],
  ['passkeys off', { ...testConfig, passkeys: false }],
  ['passkeys as a number', { ...testConfig, passkeys: 1 }],
  ['an array', [testConfig]],
  ['null', null],
];

describe('runtime config check', () => {
  it.each(variants)('agrees with the contract schema on %s', (_name, value) => {
    const contract = runtimeConfigSchema.safeParse(value);
    const parse = () => parseRuntimeConfig(value);
    if (contract.success) expect(parse()).toEqual(contract.data);
    else expect(parse).toThrow(ConfigError);
  });

  it('names the pool id problem with the spec text', () => {
    expect(() => parseRuntimeConfig({ ...testConfig, userPoolId: 'nounderscore' })).toThrow(
      'userPoolId: Invalid user pool id provided.',
    );
  });

  it('keeps the session limits and names a bad one', () => {
    const session = { idleTimeoutMinutes: 10, absoluteSessionMinutes: 60 };
    expect(parseRuntimeConfig({ ...testConfig, session }).session).toEqual(session);
    expect(() => parseRuntimeConfig({ ...testConfig, session: { ...session, idleTimeoutMinutes: -5 } })).toThrow(
      'session.idleTimeoutMinutes: expected a positive whole number',
    );
  });

  it('refuses non-http addresses, which would become link targets', () => {
    expect(() => parseRuntimeConfig({ ...testConfig, marketingSiteUrl: 'javascript:alert(1)' })).toThrow(ConfigError);
  });

  it('loads /config.json without caching', async () => {
    const fetchMock = vi.fn(async () => Response.json(testConfig));
    await expect(loadConfig(fetchMock)).resolves.toEqual(testConfig);
    expect(fetchMock).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('explains a missing config', async () => {
    await expect(loadConfig(async () => new Response('', { status: 404 }))).rejects.toThrow(
      'The configuration could not be loaded: HTTP 404.',
    );
  });
});
