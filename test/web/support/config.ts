import type { RuntimeConfig } from '#contracts/config.ts';

export const testConfig: RuntimeConfig = {
  productName: 'TVIQ',
  region: 'us-east-2',
  userPoolId: 'us-east-2_AbCdEf123',
  userPoolClientId: 'client123',
  cognitoEndpoint: 'http://127.0.0.1:9229/',
  graphqlUrl: 'http://127.0.0.1:9300/graphql',
  functions: {
    embed: 'http://127.0.0.1:9401/',
    quicksightAdmin: 'http://127.0.0.1:9402/',
    userAdmin: 'http://127.0.0.1:9403/',
    mfa: 'http://127.0.0.1:9404/',
    contact: 'http://127.0.0.1:9405/',
  },
  marketingSiteUrl: 'https://www.example.com/',
};
