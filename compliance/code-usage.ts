import { buildSync } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { COGNITO_WITHOUT_IAM } from '#contracts/cognito-operations.ts';
import { bundleNames, conditionsOf, tableResources, type BundleNames, type TableResource } from './table-calls.ts';

/**
 * Which AWS API calls a handler's code makes, for the access matrix.
 *
 * The handler is bundled the way it deploys (esbuild from `lambdas/<name>/handler.ts`,
 * following its imports through `lambdas/shared/**` and `contracts/**`, tree-shaken) with
 * packages left external, so only code that can run in that function counts. Each
 * `new <Op>Command(...)` whose class is imported from an AWS SDK package is one call; the
 * package names the IAM service prefix and the command the action (below).
 */

export interface CodeUse {
  /** IAM action the call is authorized on, or undefined when IAM does not authorize it. */
  readonly action?: string;
  /** The SDK operation (`GetCommand` of lib-dynamodb is `dynamodb:GetItem`). */
  readonly operation: string;
  readonly sdkPackage: string;
  /** Source file, relative to the project root. */
  readonly file: string;
  readonly line: number;
  /** Enclosing top-level function or constant, when there is one. */
  readonly symbol?: string;
  /** Why the call needs no IAM permission. */
  readonly withoutIam?: string;
  /**
   * The resources the call acts on, as far as the code names them (tables and indexes by
   * their definition, the user pool, the SES identity, the SNS topic); undefined when the
   * code does not say or the service is checked per action only.
   */
  readonly resources?: readonly UseResource[];
  /**
   * A DynamoDB call's ConditionExpression as the code writes it (each value it may take, or
   * `(computed)`); absent when the input has none.
   */
  readonly conditions?: readonly string[];
}

/**
 * A resource a call acts on: a table or index (see TableResource), the user pool, an SES identity
 * (any identity when the sends' recipients are known at run time only, see RUN_TIME_RECIPIENTS),
 * an SNS topic.
 */
export type UseResource =
  | TableResource
  | { readonly kind: 'pool' }
  | { readonly kind: 'identity'; readonly anyIdentity?: true }
  | { readonly kind: 'topic' };

/**
 * The functions whose SES sends go to recipients known only at run time, with who they are. While
 * the account is in the SES sandbox, SES authorizes SendEmail on each recipient's identity as well
 * as the sender's (https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html), so only
 * their sends cover a grant on every identity; any other function's send covers named identities.
 */
const RUN_TIME_RECIPIENTS: Readonly<Record<string, string>> = {
  deliveries: 'each file goes to its subscriber, any address',
};

/** Services whose grants are checked per (action, resource); the others per action. */
export const RESOURCE_CHECKED_SERVICES = ['dynamodb', 'cognito-idp', 'ses', 'sns'] as const;

/** IAM service prefix of each SDK client package (Service Authorization Reference). */
const SERVICE_PREFIX: Readonly<Record<string, string>> = {
  '@aws-sdk/client-cognito-identity-provider': 'cognito-idp',
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-quicksight': 'quicksight',
  '@aws-sdk/client-sesv2': 'ses',
  '@aws-sdk/client-ses': 'ses',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-cloudfront': 'cloudfront',
  '@aws-sdk/client-lambda': 'lambda',
  '@aws-sdk/client-sts': 'sts',
};

/**
 * lib-dynamodb's document commands wrap the low-level operations; IAM authorizes the
 * operation underneath. Transactions have no action of their own: DynamoDB checks each item
 * against the action of its kind, so a transactional write may need any of four.
 */
const DYNAMODB_DOCUMENT_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  GetCommand: ['GetItem'],
  PutCommand: ['PutItem'],
  UpdateCommand: ['UpdateItem'],
  DeleteCommand: ['DeleteItem'],
  QueryCommand: ['Query'],
  ScanCommand: ['Scan'],
  BatchGetCommand: ['BatchGetItem'],
  BatchWriteCommand: ['BatchWriteItem'],
  TransactGetCommand: ['GetItem'],
  TransactWriteCommand: ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
};
const DYNAMODB_TRANSACTIONS: Readonly<Record<string, readonly string[]>> = {
  TransactGetItemsCommand: ['GetItem'],
  TransactWriteItemsCommand: ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
};

/**
 * Actions a call needs besides its own, from the API and Service Authorization References:
 * QuickSight's CreateDataSet reads its data source (the permission-only PassDataSource),
 * CreateDataSource with S3Parameters.RoleArn hands QuickSight a role (iam:PassRole; the
 * product's only data source names one), and S3 answers a read of a missing key with NoSuchKey
 * only to a caller allowed s3:ListBucket on the bucket, AccessDenied otherwise (GetObject and
 * HeadObject, "Permissions"), which code telling a missing object from a refusal relies on.
 */
const ADDITIONAL_ACTIONS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  '@aws-sdk/client-quicksight': {
    CreateDataSetCommand: ['quicksight:PassDataSource'],
    CreateDataSourceCommand: ['iam:PassRole'],
  },
  '@aws-sdk/client-s3': {
    GetObjectCommand: ['s3:ListBucket'],
    HeadObjectCommand: ['s3:ListBucket'],
  },
};

/**
 * Operations the Service Authorization Reference authorizes under another operation's action:
 * QuickSight lists no action for DescribeDashboardDefinition, which quicksight:DescribeDashboard allows.
 */
const AUTHORIZED_AS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '@aws-sdk/client-quicksight': { DescribeDashboardDefinitionCommand: 'DescribeDashboard' },
};

const TOKEN_AUTHORIZED = "authorized by the user's own access token (Cognito user pools API), no IAM permission";

/** The IAM actions one SDK command needs (none for Cognito's token-authorized operations). */
export function actionsOf(sdkPackage: string, command: string): { actions: string[]; withoutIam?: string } {
  const prefix = SERVICE_PREFIX[sdkPackage] ?? sdkPackage.replace(/^@aws-sdk\/client-/, '');
  if (sdkPackage === '@aws-sdk/lib-dynamodb') {
    const operations = DYNAMODB_DOCUMENT_ACTIONS[command];
    if (!operations)
      throw new Error(`No IAM mapping for ${command} of @aws-sdk/lib-dynamodb: add it to DYNAMODB_DOCUMENT_ACTIONS`);
    return { actions: operations.map((op) => `dynamodb:${op}`) };
  }
  const transaction = sdkPackage === '@aws-sdk/client-dynamodb' ? DYNAMODB_TRANSACTIONS[command] : undefined;
  if (transaction) return { actions: transaction.map((op) => `dynamodb:${op}`) };
  const operation = AUTHORIZED_AS[sdkPackage]?.[command] ?? command.replace(/Command$/, '');
  if (prefix === 'cognito-idp' && COGNITO_WITHOUT_IAM.has(operation))
    return { actions: [], withoutIam: TOKEN_AUTHORIZED };
  return { actions: [`${prefix}:${operation}`, ...(ADDITIONAL_ACTIONS[sdkPackage]?.[command] ?? [])] };
}

const SOURCE_MARKER = /^\/\/ ((?:lambdas|contracts|lib)\/\S+\.tsx?)$/gm;

/**
 * Top-level name a bundled statement declares (esbuild suffixes renamed duplicates with digits).
 * Inside a lazily initialised module, a top-level `const name = ...` of the source is an
 * assignment `name = ...` (the `var` is hoisted out of the wrapper).
 */
function declaredName(statement: ts.Statement): string | undefined {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) return statement.name?.text;
  if (ts.isVariableStatement(statement)) {
    const name = statement.declarationList.declarations[0]?.name;
    return name && ts.isIdentifier(name) ? name.text : undefined;
  }
  if (
    ts.isExpressionStatement(statement) &&
    ts.isBinaryExpression(statement.expression) &&
    statement.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isIdentifier(statement.expression.left)
  ) {
    return statement.expression.left.text;
  }
  return undefined;
}

/**
 * The bundle's statements as the source's top-level statements: a module the handler loads
 * with `import()` is wrapped by esbuild in `var init_<file> = __esm({ "<file>"() { ... } })`,
 * whose body holds that module's top level.
 */
function sourceStatements(statements: readonly ts.Statement[]): ts.Statement[] {
  return statements.flatMap((statement) => {
    if (!declaredName(statement)?.startsWith('init_') || !ts.isVariableStatement(statement)) return [statement];
    const call = statement.declarationList.declarations[0]?.initializer;
    const wrapper = call && ts.isCallExpression(call) ? call.arguments[0] : undefined;
    const body =
      wrapper && ts.isObjectLiteralExpression(wrapper)
        ? wrapper.properties.find(ts.isMethodDeclaration)?.body
        : undefined;
    return body ? sourceStatements(body.statements) : [statement];
  });
}

/** Line of the first `new <Command>(` in the original source, inside the named declaration when it is found there. */
function sourceLine(root: string, file: string, command: string, symbol: string | undefined): number {
  const path = join(root, file);
  if (!existsSync(path)) return 0;
  const lines = readFileSync(path, 'utf8').split('\n');
  const from = symbol
    ? Math.max(
        0,
        lines.findIndex((text) => new RegExp(`\\b(function|const|let|class)\\s+${symbol}\\b`).test(text)),
      )
    : 0;
  const index = lines.findIndex((text, i) => i >= from && text.includes(`new ${command}(`));
  return index + 1;
}

/** The resources a call of `action` acts on, or undefined when the code does not determine them. */
function resourcesOf(
  action: string,
  argument: ts.Expression | undefined,
  names: BundleNames,
  handler: string,
): UseResource[] | undefined {
  const service = action.split(':')[0];
  if (service === 'dynamodb') return tableResources(argument, action, names);
  if (service === 'cognito-idp') return [{ kind: 'pool' }];
  if (service === 'ses') return [{ kind: 'identity', ...(handler in RUN_TIME_RECIPIENTS && { anyIdentity: true }) }];
  if (service === 'sns') return [{ kind: 'topic' }];
  return undefined;
}

const cache = new Map<string, readonly CodeUse[]>();

/** The AWS calls of one handler (`lambdas/<name>/handler.ts` under `root`). */
export function codeUsesOf(root: string, name: string): readonly CodeUse[] {
  const entry = join(root, 'lambdas', name, 'handler.ts');
  const key = `${root}\0${name}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const output = buildSync({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    treeShaking: true,
    minify: false,
    logLevel: 'silent',
  }).outputFiles[0]!.text;
  const markers = [...output.matchAll(SOURCE_MARKER)].map((match) => ({ at: match.index, file: match[1]! }));
  const fileAt = (position: number) =>
    markers.filter((marker) => marker.at <= position).at(-1)?.file ?? relative(root, entry);

  const source = ts.createSourceFile('bundle.mjs', output, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const sdkImports = new Map<string, { sdkPackage: string; imported: string }>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const sdkPackage = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    if (!sdkPackage.startsWith('@aws-sdk/') || !bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements)
      sdkImports.set(element.name.text, { sdkPackage, imported: (element.propertyName ?? element.name).text });
  }

  const names = bundleNames(source);
  const uses: CodeUse[] = [];
  for (const statement of sourceStatements(source.statements)) {
    const symbol = declaredName(statement)?.replace(/\d+$/, '');
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const sdk = sdkImports.get(node.expression.text);
        if (sdk && sdk.imported.endsWith('Command')) {
          const file = fileAt(statement.getStart(source));
          const { actions, withoutIam } = actionsOf(sdk.sdkPackage, sdk.imported);
          const line = sourceLine(root, file, sdk.imported, symbol);
          const place = { operation: sdk.imported, sdkPackage: sdk.sdkPackage, file, line, ...(symbol && { symbol }) };
          if (actions.length === 0) uses.push({ ...place, withoutIam });
          for (const action of actions) {
            const resources = resourcesOf(action, node.arguments?.[0], names, name);
            const conditions = action.startsWith('dynamodb:') ? conditionsOf(node.arguments?.[0], names) : undefined;
            uses.push({ ...place, action, ...(resources && { resources }), ...(conditions && { conditions }) });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(statement);
  }
  cache.set(key, uses);
  return uses;
}

/** `lambdas/shared/data/views.ts:157 createView` */
export const describeUse = (use: CodeUse): string => `${use.file}:${use.line}${use.symbol ? ` ${use.symbol}()` : ''}`;
