import { S3Client } from '@aws-sdk/client-s3';
import { ENV } from '#contracts/env.ts';
import { optionalEnv } from '../env.ts';
import { clientConfig } from './config.ts';

/** Local mode's S3 stand-in answers path-style requests (`/<bucket>/<key>`) only. */
export const s3 = new S3Client({
  ...clientConfig(ENV.s3Endpoint),
  forcePathStyle: optionalEnv(ENV.s3Endpoint) !== undefined,
});
