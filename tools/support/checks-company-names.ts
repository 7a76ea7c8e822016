import { QueryCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { nameSplitsInRules } from '#contracts/companies.ts';
import { describeError } from './cli.ts';
import type { CheckResult } from './report.ts';

/**
 * Company names the row-level-security rules can read as one company each: a name with a
 * comma or a double quote (made before the portal refused them, contracts/companies.ts) is read
 * by QuickSight as several companies, granting the rows of each. Read-only: a Query of the
 * companies' partition of the State table (pk COMPANY, one item per company with its name;
 * lambdas/shared/data/companies.ts).
 */

export interface CompanyNamesTarget {
  readonly dynamodb: DynamoDBClient;
  /** The State table (output StateTableName, or local mode's table). */
  readonly stateTable: string;
}

const TITLE = 'Company names';

async function companyNames(target: CompanyNamesTarget): Promise<string[]> {
  const names: string[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await target.dynamodb.send(
      new QueryCommand({
        TableName: target.stateTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'COMPANY' } },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) if (item.name?.S !== undefined) names.push(item.name.S);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return names.sort((a, b) => a.localeCompare(b));
}

/** Every company name holds neither a comma nor a double quote; one that does is a blocker. */
export async function companyNamesCheck(target: CompanyNamesTarget): Promise<CheckResult> {
  let names: string[];
  try {
    names = await companyNames(target);
  } catch (error) {
    return {
      title: TITLE,
      status: 'fail',
      detail: `reading the companies (${target.stateTable}): ${describeError(error)}`,
      fix: 'Check that the credentials may call dynamodb:Query on the State table',
    };
  }
  if (names.length === 0) return { title: TITLE, status: 'pass', detail: 'no companies yet' };
  const splitting = names.filter(nameSplitsInRules);
  if (splitting.length === 0) {
    return {
      title: TITLE,
      status: 'pass',
      detail: `${names.length} ${names.length === 1 ? 'company' : 'companies'}, none with a comma or a double quote in its name`,
    };
  }
  return {
    title: TITLE,
    status: 'fail',
    detail: `${splitting.length} of ${names.length} company names hold a comma or a double quote, which QuickSight's row-level security reads as several companies (each part's rows are granted):\n       - ${splitting.join('\n       - ')}`,
    fix: 'Rename each company named on the Companies tab of the admin portal, to a name without a comma or a double quote',
  };
}
