import { Aspects, CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct, type IConstruct } from 'constructs';
import { tables, type KeyDefinition, type TableDefinition } from '#contracts/tables.ts';
import { acknowledge, DATA_CLASSIFICATION_METADATA } from './compliance.ts';

/**
 * What each data store holds, for the evidence pack's data classification: written as
 * metadata next to the store's resource in the template (`portal:data-classification`).
 */
interface StoreData {
  /** `personal data` when it identifies people, `internal` otherwise, `public` for what anyone may read. */
  readonly classification: 'personal data' | 'internal' | 'public';
  /** The personal data it holds (empty when none). */
  readonly personalData: readonly string[];
  /** What the store is for. */
  readonly purpose: string;
}

/** The tables, by their definition (`contracts/tables.ts`). */
const TABLE_DATA: Readonly<Record<TableDefinition['id'], StoreData>> = {
  Views: {
    classification: 'personal data',
    personalData: ['user email addresses', 'which dashboards each user is assigned'],
    purpose: 'the dashboards each user may open (one item per assignment)',
  },
  Dashboards: {
    classification: 'personal data',
    personalData: ['email address of the administrator who catalogued each dashboard'],
    purpose: 'the dashboard catalogue',
  },
  State: {
    classification: 'personal data',
    personalData: [
      'user email addresses (default dashboard, assignments, company membership)',
      'company each user belongs to',
      'end of sessions per account',
      'contact form rate-limit records',
      "the portal's copy of the user directory: each account's email, status, enabled flag, group and dates",
    ],
    purpose: 'small per-user and per-key records the server rules need, and the directory copy the admin pages list',
  },
  Audit: {
    classification: 'personal data',
    personalData: ['email addresses of the administrator acting and of the account acted on', 'what was done and when'],
    purpose: "the administrators' activity trail",
  },
  Usage: {
    classification: 'personal data',
    personalData: ['dashboard views per user (email address, dashboard, time)', 'view counts per user and dashboard'],
    purpose: 'dashboard view events and the Insights aggregates, expiring after usageRetentionDays',
  },
};

/** The other stores, by construct path inside the portal stack. */
const OTHER_STORE_DATA: Readonly<Record<string, StoreData>> = {
  'Auth/UserPool': {
    classification: 'personal data',
    personalData: [
      'email addresses',
      'password verifiers (Cognito)',
      'authenticator secrets',
      'remembered device names',
      'group membership',
    ],
    purpose: 'the accounts and their sign-in factors',
  },
  'Site/Content': {
    classification: 'public',
    personalData: [],
    purpose: 'the built single-page app, served to anyone through CloudFront',
  },
  'Site/AccessLogs': {
    classification: 'personal data',
    personalData: [
      'client IP addresses, requested paths and user agents of the site and the rules bucket (S3 and CloudFront access logs)',
    ],
    purpose: 'access logs',
  },
  'Companies/RulesBucket': {
    classification: 'internal',
    personalData: [],
    purpose: 'the QuickSight row-level security rules file: company group ARNs and company names, no user identities',
  },
};

function classify(resource: CfnResource, data: StoreData): void {
  resource.addMetadata(DATA_CLASSIFICATION_METADATA, data);
}

export interface PortalDataProps {
  /** Whether tables refuse deletion and are kept when the stack is deleted. */
  readonly deletionProtection: boolean;
}

/** A table of the product together with the definition it was created from. */
export interface PortalTable {
  readonly definition: TableDefinition;
  readonly table: dynamodb.Table;
  /** Whether the functions read the table only through its indexes: Query and Scan are granted on them, not on it. */
  readonly readThroughIndexes: boolean;
}

/**
 * Tables every Query of the functions reads through an index: Views is read by user or by
 * dashboard (lambdas/shared/data/views.ts), its base table only item by item (GetItem).
 */
const READ_THROUGH_INDEXES: ReadonlySet<TableDefinition['id']> = new Set(['Views']);

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
      created.set(definition.id, {
        definition,
        table,
        readThroughIndexes: READ_THROUGH_INDEXES.has(definition.id),
      });
      classify(table.node.defaultChild as CfnResource, TABLE_DATA[definition.id]);
      acknowledge(table, {
        'NIST.800.53.R5-DynamoDBInBackupPlan': `The table has point-in-time recovery (continuous backups, restore to any second of the last 35 days), which covers the contingency-planning controls (CP-9, CP-10) this rule maps to. It holds ${TABLE_DATA[definition.id].purpose}${
          TABLE_DATA[definition.id].personalData.length > 0
            ? ` (personal data: ${TABLE_DATA[definition.id].personalData.join('; ')})`
            : ''
        }; an AWS Backup plan can be added by the account owner through a tag-based organization backup policy without changing this stack.`,
      });
    }
    this.tables = created;
    // The other stores are defined elsewhere; their classification is declared here, next to the tables'.
    const stack = Stack.of(this);
    Aspects.of(stack).add({
      visit(node: IConstruct) {
        if (!CfnResource.isCfnResource(node) || Stack.of(node) !== stack) return;
        const path = node.node.path.slice(stack.node.path.length + 1).replace(/\/Resource$/, '');
        const data = OTHER_STORE_DATA[path];
        if (data && !node.getMetadata(DATA_CLASSIFICATION_METADATA)) classify(node, data);
      },
    });
  }

  table(id: TableDefinition['id']): PortalTable {
    const table = this.tables.get(id);
    if (!table) throw new Error(`No table ${id} is defined in contracts/tables.ts`);
    return table;
  }
}
