import { ConditionalCheckFailedException, InternalServerError } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const documents = mockClient(DynamoDBDocumentClient);
let writeAuditEntry: typeof import('#lambdas/shared/data/audit.ts').writeAuditEntry;

beforeAll(async () => {
  process.env.AWS_REGION = 'us-east-2';
  process.env.AUDIT_TABLE = 'portal-audit';
  ({ writeAuditEntry } = await import('#lambdas/shared/data/audit.ts'));
});
afterEach(() => documents.reset());
afterAll(() => documents.restore());

const draft = {
  actor: 'admin@example.com',
  action: 'DISABLE_USER',
  target: 'someone@example.com',
  outcome: 'success' as const,
  detail: null,
};
const taken = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const puts = () => documents.commandCalls(PutCommand).map((call) => call.args[0].input);

describe('the audit trail refuses to overwrite an entry', () => {
  it('puts each entry on the condition that no item holds its key', async () => {
    documents.on(PutCommand).resolves({});
    const entry = await writeAuditEntry(draft);
    expect(puts()).toEqual([
      {
        TableName: 'portal-audit',
        Item: { pk: 'AUDIT', sk: expect.stringMatching(new RegExp(`^${entry.at}#\\d{6}#${entry.id}$`)), ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    ]);
  });

  it('writes the entry under a fresh key when an item already holds the first, and leaves that item alone', async () => {
    documents.on(PutCommand).rejectsOnce(taken()).resolves({});
    const entry = await writeAuditEntry(draft);
    const [first, second] = puts();
    expect(puts()).toHaveLength(2);
    expect(second!.Item!.sk).not.toBe(first!.Item!.sk);
    expect(first!.Item!.id).not.toBe(entry.id);
    expect(second).toMatchObject({ ConditionExpression: 'attribute_not_exists(pk)', Item: { id: entry.id } });
  });

  it('fails naming the key when the fresh key is taken too, after two conditional puts', async () => {
    documents.on(PutCommand).rejects(taken());
    await expect(writeAuditEntry(draft)).rejects.toThrow(
      /^Audit entry not written: an item already holds its key AUDIT\//,
    );
    expect(puts()).toHaveLength(2);
    expect(puts().every((input) => input.ConditionExpression === 'attribute_not_exists(pk)')).toBe(true);
  });

  it('passes any other failure on without a second put', async () => {
    documents.on(PutCommand).rejects(new InternalServerError({ message: 'Internal server error', $metadata: {} }));
    await expect(writeAuditEntry(draft)).rejects.toThrow('Internal server error');
    expect(puts()).toHaveLength(1);
  });
});
