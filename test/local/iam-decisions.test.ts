import { describe, expect, it } from 'vitest';
import { LocalIam, type LocalPrincipal } from '#local/iam/policies.ts';

const ACCOUNT = '000000000000';
const TABLE = `arn:aws:dynamodb:us-east-2:${ACCOUNT}:table/local-State`;
const OTHER_TABLE = `arn:aws:dynamodb:us-east-2:${ACCOUNT}:table/local-Audit`;

/** A function whose role may read one table, and send mail only from one address. */
const reader: LocalPrincipal = {
  name: 'reader',
  arn: `arn:aws:sts::${ACCOUNT}:assumed-role/reader/reader`,
  accessKeyId: 'AKIAREADER',
  secretAccessKey: 'secret',
  policies: [
    {
      name: 'reader',
      policy: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: TABLE },
          {
            Effect: 'Allow',
            Action: 'ses:SendEmail',
            Resource: '*',
            Condition: { StringEquals: { 'ses:FromAddress': 'support@example.com' } },
          },
        ],
      },
    },
  ],
};

describe('local IAM decisions, each call simulated once', () => {
  it('answers a repeated call as the first time, and decides another resource, action or condition key on its own', async () => {
    const iam = new LocalIam(ACCOUNT);
    iam.add(reader);
    const get = (resource: string) => iam.authorize(reader, { action: 'dynamodb:GetItem', resources: [resource] });
    expect(await get(TABLE)).toEqual({ allowed: true });
    expect(await get(TABLE)).toEqual({ allowed: true });
    expect(await get(OTHER_TABLE)).toMatchObject({ allowed: false });
    expect(await get(OTHER_TABLE)).toMatchObject({
      allowed: false,
      message: expect.stringContaining(`dynamodb:GetItem on resource: ${OTHER_TABLE}`),
    });
    expect(await iam.authorize(reader, { action: 'dynamodb:PutItem', resources: [TABLE] })).toMatchObject({
      allowed: false,
    });
    // Every resource of a call must be allowed, whichever order they come in.
    expect(await iam.authorize(reader, { action: 'dynamodb:GetItem', resources: [TABLE, OTHER_TABLE] })).toMatchObject({
      allowed: false,
    });
    expect(await iam.authorize(reader, { action: 'dynamodb:GetItem', resources: [OTHER_TABLE, TABLE] })).toMatchObject({
      allowed: false,
    });

    const send = (from: string) =>
      iam.authorize(reader, { action: 'ses:SendEmail', resources: ['*'], context: { 'ses:FromAddress': from } });
    expect(await send('support@example.com')).toEqual({ allowed: true });
    expect(await send('someone@example.com')).toMatchObject({ allowed: false });
    expect(await send('support@example.com')).toEqual({ allowed: true });
  });

  it('keeps decisions per principal: one allowed to a principal is not lent to another with other policies', async () => {
    const iam = new LocalIam(ACCOUNT);
    iam.add(reader);
    const stranger: LocalPrincipal = {
      ...reader,
      name: 'stranger',
      arn: `arn:aws:sts::${ACCOUNT}:assumed-role/stranger/stranger`,
      accessKeyId: 'AKIASTRANGER',
      policies: [{ name: 'nothing', policy: { Version: '2012-10-17', Statement: [] } }],
    };
    iam.add(stranger);
    const call = { action: 'dynamodb:GetItem', resources: [TABLE] };
    expect(await iam.authorize(reader, call)).toEqual({ allowed: true });
    expect(await iam.authorize(stranger, call)).toMatchObject({ allowed: false });
  });
});
