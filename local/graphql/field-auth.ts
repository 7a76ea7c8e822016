import type { ConstDirectiveNode, GraphQLField, GraphQLObjectType } from 'graphql';

const COGNITO_DIRECTIVES = new Set(['aws_cognito_user_pools', 'aws_auth']);
const AUTH_DIRECTIVES = new Set([...COGNITO_DIRECTIVES, 'aws_api_key', 'aws_iam', 'aws_oidc', 'aws_lambda']);

function authDirectives(directives: readonly ConstDirectiveNode[] | undefined): ConstDirectiveNode[] {
  return (directives ?? []).filter((d) => AUTH_DIRECTIVES.has(d.name.value));
}

function cognitoGroups(directive: ConstDirectiveNode): string[] | undefined {
  const argument = directive.arguments?.find((a) => a.name.value === 'cognito_groups');
  if (!argument || argument.value.kind !== 'ListValue') return undefined;
  return argument.value.values.flatMap((v) => (v.kind === 'StringValue' ? [v.value] : []));
}

/**
 * AppSync's rule for a caller signed in with the user pool (the API's default mode): a
 * field with no authorization directive, on a type with none, is allowed; otherwise the
 * field's directives (or else the type's) must name the user pool, and when they list
 * `cognito_groups` the caller must belong to one of them.
 */
export function userPoolCallerMayResolve(
  field: GraphQLField<unknown, unknown>,
  parentType: GraphQLObjectType,
  callerGroups: readonly string[],
): boolean {
  const fieldLevel = authDirectives(field.astNode?.directives);
  const directives = fieldLevel.length > 0 ? fieldLevel : authDirectives(parentType.astNode?.directives);
  if (directives.length === 0) return true;
  return directives
    .filter((d) => COGNITO_DIRECTIVES.has(d.name.value))
    .some((d) => {
      const groups = cognitoGroups(d);
      return groups === undefined || groups.some((g) => callerGroups.includes(g));
    });
}
