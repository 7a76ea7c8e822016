import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tables, type KeyDefinition, type TableDefinition } from '../contracts/tables.ts';
import { acknowledge } from './compliance.ts';

export interface PortalDataProps {
  /** Whether tables refuse deletion and are kept when the stack is deleted. */
  readonly deletionProtection: boolean;
}

/** A table of the product together with the definition it was created from. */
export interface PortalTable {
  readonly definition: TableDefinition;
  readonly table: dynamodb.Table;
  /** ARNs of the table's global secondary indexes (queries on an index are authorized on them). */
  readonly indexArns: readonly string[];
}

const attribute = (key: KeyDefinition): dynamodb.Attribute => ({
  name: key.name,
  type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

/**
 * The DynamoDB tables, created from the same definitions local mode uses
 * (`contracts/tables.ts`): on demand, encrypted with the AWS-managed key, point-in-time
 * recovery on, deletion protection configurable.
 */
export class PortalData extends Construct {
  readonly tables: ReadonlyMap<TableDefinition['id'], PortalTable>;

  constructor(scope: Construct, id: string, props: PortalDataProps) {
    super(scope, id);
    const created = new Map<TableDefinition['id'], PortalTable>();
    for (const definition of tables) {
      const table = new dynamodb.Table(this, definition.id, {
        partitionKey: attribute(definition.partitionKey),
        sortKey: definition.sortKey ? attribute(definition.sortKey) : undefined,
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: props.deletionProtection,
        removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
        timeToLiveAttribute: definition.timeToLiveAttribute,
      });
      for (const index of definition.globalSecondaryIndexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          sortKey: index.sortKey ? attribute(index.sortKey) : undefined,
          projectionType: dynamodb.ProjectionType.ALL,
        });
      }
      const indexArns = definition.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`);
      created.set(definition.id, { definition, table, indexArns });
      acknowledge(table, {
        'NIST.800.53.R5-DynamoDBInBackupPlan':
          'The table has point-in-time recovery (continuous backups, restore to any second of the last 35 days), which covers the contingency-planning controls (CP-9, CP-10) this rule maps to. It holds small administrative data (dashboard assignments, catalogue, per-user state, audit trail); an AWS Backup plan can be added by the account owner through a tag-based organization backup policy without changing this stack.',
      });
    }
    this.tables = created;
  }

  table(id: TableDefinition['id']): PortalTable {
    const table = this.tables.get(id);
    if (!table) throw new Error(`No table ${id} is defined in contracts/tables.ts`);
    return table;
  }
}
