import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ENV } from '../../../contracts/env.ts';
import { clientConfig } from './config.ts';

export const ses = new SESv2Client(clientConfig(ENV.sesEndpoint));
