import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '../../../contracts/env.ts';
import { clientConfig } from './config.ts';

export const cognito = new CognitoIdentityProviderClient(clientConfig(ENV.cognitoEndpoint));
