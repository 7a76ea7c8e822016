import ts from 'typescript';

/**
 * The tables and indexes a DynamoDB call of a bundled handler acts on, read from the input
 * the code builds for it: every `tableName(<definition>)` and literal `TableName`, and the
 * `IndexName` a Query or Scan reads. An input may come from elsewhere: the result of a helper
 * (`...query` where `query = makeQuery(...)`, whose body is read) or a parameter of the
 * function that sends the call (`...input` in `queryAll(input)`), in which case each call of
 * that function in the bundle is one input the call can be sent with.
 */

/** The names of one bundle: what each is assigned, and where each function is called. */
export interface BundleNames {
  readonly values: ReadonlyMap<string, ts.Expression>;
  /** Every call of the named function, or undefined when the bundle also uses it otherwise (passed on, stored). */
  callsOf(name: string): readonly ts.CallExpression[] | undefined;
}

/** Whether an identifier is the name a declaration or an assignment gives, not a use of it. */
function isDeclaredName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    ((ts.isVariableDeclaration(parent) || ts.isFunctionDeclaration(parent) || ts.isParameter(parent)) &&
      parent.name === node) ||
    (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.left === node)
  );
}

/** Reads the names of a bundle parsed with parent nodes set. */
export function bundleNames(source: ts.SourceFile): BundleNames {
  const values = new Map<string, ts.Expression>();
  const calls = new Map<string, ts.CallExpression[]>();
  const otherUses = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
      values.set(node.name.text, node.initializer);
    if (ts.isFunctionDeclaration(node) && node.name && node.body)
      values.set(
        node.name.text,
        ts.factory.createFunctionExpression(undefined, undefined, undefined, undefined, [], undefined, node.body),
      );
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left) &&
      !values.has(node.left.text)
    ) {
      values.set(node.left.text, node.right);
    }
    if (ts.isIdentifier(node) && !isDeclaredName(node)) {
      const parent = node.parent;
      if (ts.isCallExpression(parent) && parent.expression === node) {
        calls.set(node.text, [...(calls.get(node.text) ?? []), parent]);
      } else if (!(
        (ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) &&
        parent.name === node
      )) {
        otherUses.add(node.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return {
    values,
    callsOf: (name) => (otherUses.has(name) ? undefined : (calls.get(name) ?? [])),
  };
}

const propertyName = (property: ts.ObjectLiteralElementLike): string | undefined =>
  property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
    ? property.name.text
    : undefined;

/** A string the expression evaluates to: a literal, or a name the bundle assigns a literal to. */
function stringValue(expression: ts.Expression, values: BundleNames['values']): string | undefined {
  if (ts.isStringLiteralLike(expression)) return expression.text;
  if (ts.isIdentifier(expression)) {
    const value = values.get(expression.text);
    return value && ts.isStringLiteralLike(value) ? value.text : undefined;
  }
  return undefined;
}

/** The `envVar` of a table definition object (`contracts/tables.ts`) a name stands for. */
function tableEnvVar(expression: ts.Expression, values: BundleNames['values']): string | undefined {
  const value = ts.isIdentifier(expression) ? values.get(expression.text) : expression;
  if (!value || !ts.isObjectLiteralExpression(value)) return undefined;
  const envVar = value.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyName(p) === 'envVar',
  );
  return envVar ? stringValue(envVar.initializer, values) : undefined;
}

/** The function (by the name the bundle calls it) whose parameter an identifier is, and the parameter's position. */
function parameterOf(identifier: ts.Identifier): { readonly name: string; readonly position: number } | undefined {
  for (let node: ts.Node = identifier.parent; !ts.isSourceFile(node); node = node.parent) {
    if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node) && !ts.isFunctionDeclaration(node)) continue;
    const position = node.parameters.findIndex(
      (parameter) => ts.isIdentifier(parameter.name) && parameter.name.text === identifier.text,
    );
    if (position < 0) continue;
    const holder = node.parent;
    if (ts.isFunctionDeclaration(node)) return node.name ? { name: node.name.text, position } : undefined;
    if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return { name: holder.name.text, position };
    if (ts.isBinaryExpression(holder) && ts.isIdentifier(holder.left)) return { name: holder.left.text, position };
    return undefined;
  }
  return undefined;
}

/** One input a call can be sent with. */
interface CallInput {
  readonly tables: readonly { readonly envVar?: string; readonly name?: string }[];
  readonly index?: string;
  /** Part of the input could not be read: it may name any index. */
  readonly indexUnknown: boolean;
}

const UNKNOWN: CallInput = { tables: [], indexUnknown: true };

const merge = (outer: CallInput, inner: CallInput): CallInput => ({
  tables: [...outer.tables, ...inner.tables],
  index: outer.index ?? inner.index,
  indexUnknown: outer.indexUnknown || inner.indexUnknown,
});

/** The inputs an expression stands for: itself read through, or, for a parameter, each caller's argument. */
function inputsOf(expression: ts.Expression, names: BundleNames, followed: ReadonlySet<string>): CallInput[] {
  const parameter = ts.isIdentifier(expression) ? parameterOf(expression) : undefined;
  if (parameter) {
    const calls = names.callsOf(parameter.name);
    if (calls === undefined || calls.length === 0 || followed.has(parameter.name)) return [UNKNOWN];
    const next = new Set([...followed, parameter.name]);
    return calls.flatMap((call) => {
      const argument = call.arguments[parameter.position];
      return argument ? inputsOf(argument, names, next) : [{ tables: [], indexUnknown: false }];
    });
  }
  const tables: CallInput['tables'][number][] = [];
  let index: string | undefined;
  let indexUnknown = false;
  let nested: CallInput[] = [{ tables: [], indexUnknown: false }];
  const helpers = new Set(followed);
  const visit = (node: ts.Node): void => {
    if (ts.isSpreadAssignment(node) && ts.isIdentifier(node.expression)) {
      const value = names.values.get(node.expression.text);
      const helper =
        value && ts.isCallExpression(value) && ts.isIdentifier(value.expression) ? value.expression.text : undefined;
      const body = helper && !helpers.has(helper) ? names.values.get(helper) : undefined;
      if (helper && body && (ts.isArrowFunction(body) || ts.isFunctionExpression(body))) {
        // `...query` where `query = makeQuery(...)`: the input comes from a helper; read its body.
        helpers.add(helper);
        visit(body.body);
      } else if (parameterOf(node.expression)) {
        const inner = inputsOf(node.expression, names, followed);
        nested = nested.flatMap((outer) => inner.map((input) => merge(outer, input)));
      } else {
        indexUnknown = true;
      }
      return;
    }
    if (ts.isSpreadAssignment(node) && ts.isCallExpression(node.expression)) indexUnknown = true;
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text.replace(/\d+$/, '') === 'tableName' &&
      node.arguments[0]
    ) {
      const envVar = tableEnvVar(node.arguments[0], names.values);
      if (envVar) tables.push({ envVar });
      else indexUnknown = true;
    }
    if (ts.isPropertyAssignment(node) && propertyName(node) === 'TableName' && ts.isStringLiteralLike(node.initializer))
      tables.push({ name: node.initializer.text });
    if (ts.isPropertyAssignment(node) && propertyName(node) === 'IndexName') {
      const name = stringValue(node.initializer, names.values);
      if (name) index = name;
      else indexUnknown = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(expression);
  return nested.map((input) => merge({ tables, index, indexUnknown }, input));
}

/**
 * A table a call acts on, named by the environment variable its definition (`contracts/tables.ts`)
 * reads the deployed name from, or by a literal table name; `index` is the index queried (`*`: the
 * table or any of its indexes, when the code passes in something that may name one; absent: the
 * table itself).
 */
export interface TableResource {
  readonly kind: 'table';
  readonly envVar?: string;
  readonly name?: string;
  readonly index?: string;
}

const INDEX_ACTIONS = new Set(['dynamodb:Query', 'dynamodb:Scan']);

/**
 * The tables (and, for a Query or Scan, the indexes) a DynamoDB call acts on; undefined when
 * the code does not say which table. `index` is absent for the table itself and `*` when the
 * code passes something in that may name any index.
 */
export function tableResources(
  argument: ts.Expression | undefined,
  action: string,
  names: BundleNames,
): TableResource[] | undefined {
  if (!argument || !ts.isObjectLiteralExpression(argument)) return undefined;
  const inputs = inputsOf(argument, names, new Set());
  if (inputs.some((input) => input.tables.length === 0)) return undefined;
  const resources = inputs.flatMap((input) => {
    const queried = INDEX_ACTIONS.has(action) ? (input.index ?? (input.indexUnknown ? '*' : undefined)) : undefined;
    return input.tables.map((table): TableResource => ({
      kind: 'table',
      ...table,
      ...(queried !== undefined && { index: queried }),
    }));
  });
  const seen = new Set<string>();
  return resources.filter((resource) => {
    const key = JSON.stringify(resource);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** What the code writes for an expression: its literal values (both branches of a `?:`), `(computed)` otherwise. */
function literalValues(expression: ts.Expression, values: BundleNames['values']): string[] {
  if (ts.isParenthesizedExpression(expression)) return literalValues(expression.expression, values);
  if (ts.isConditionalExpression(expression))
    return [...literalValues(expression.whenTrue, values), ...literalValues(expression.whenFalse, values)];
  const text = stringValue(expression, values);
  return [text ?? '(computed)'];
}

/**
 * The ConditionExpression a DynamoDB call's input writes out (each value it may take), or
 * undefined when the input has none of its own.
 */
export function conditionsOf(argument: ts.Expression | undefined, names: BundleNames): string[] | undefined {
  if (!argument || !ts.isObjectLiteralExpression(argument)) return undefined;
  const condition = argument.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyName(p) === 'ConditionExpression',
  );
  return condition ? literalValues(condition.initializer, names.values) : undefined;
}
