import type { IncomingHttpHeaders } from 'node:http';
import type { AppSyncIdentityCognito, AppSyncResolverEvent } from 'aws-lambda';
import {
  print,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { CognitoJwtPayload } from 'aws-jwt-verify/jwt-model';

/**
 * AppSync's `selectionSetList`: every field selected below the resolved field, as slash
 * paths (`items`, `items/id`), fragments expanded, introspection fields left out.
 */
export function selectionSetList(
  fieldNodes: readonly FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): string[] {
  const paths: string[] = [];
  const walk = (selectionSet: SelectionSetNode | undefined, prefix: string) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === 'Field') {
        if (selection.name.value.startsWith('__')) continue;
        const path = `${prefix}${selection.name.value}`;
        if (!paths.includes(path)) paths.push(path);
        walk(selection.selectionSet, `${path}/`);
      } else if (selection.kind === 'InlineFragment') {
        walk(selection.selectionSet, prefix);
      } else {
        walk(fragments[selection.name.value]?.selectionSet, prefix);
      }
    }
  };
  for (const node of fieldNodes) walk(node.selectionSet, '');
  return paths;
}

/** The user-pool identity AppSync hands resolvers, from the verified token's claims. */
export function cognitoIdentity(claims: CognitoJwtPayload, sourceIp: string): AppSyncIdentityCognito {
  const groups = claims['cognito:groups'];
  const username = claims.token_use === 'access' ? claims.username : claims['cognito:username'];
  return {
    sub: claims.sub,
    issuer: claims.iss,
    username: typeof username === 'string' ? username : claims.sub,
    claims,
    sourceIp: [sourceIp],
    defaultAuthStrategy: 'ALLOW',
    groups: Array.isArray(groups) && groups.length > 0 ? groups : null,
  };
}

function lowercaseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return result;
}

export interface ResolverRequest {
  readonly headers: IncomingHttpHeaders;
  readonly identity: AppSyncIdentityCognito;
  readonly variables: Record<string, unknown>;
}

/**
 * The event of an AppSync direct Lambda resolver for one field. It goes through JSON as it
 * does between AppSync and Lambda, so the handler sees plain data only.
 */
export function resolverEvent(
  args: Record<string, unknown>,
  source: unknown,
  info: GraphQLResolveInfo,
  request: ResolverRequest,
): AppSyncResolverEvent<Record<string, unknown>> {
  const selectionSet = info.fieldNodes[0]?.selectionSet;
  const event: AppSyncResolverEvent<Record<string, unknown>> = {
    arguments: args,
    identity: request.identity,
    source: (source ?? null) as Record<string, unknown> | null,
    request: { headers: lowercaseHeaders(request.headers), domainName: null },
    info: {
      fieldName: info.fieldName,
      parentTypeName: info.parentType.name,
      variables: request.variables,
      selectionSetList: selectionSetList(info.fieldNodes, info.fragments),
      selectionSetGraphQL: selectionSet ? print(selectionSet) : '',
    },
    prev: null,
    stash: {},
  };
  return JSON.parse(JSON.stringify(event)) as AppSyncResolverEvent<Record<string, unknown>>;
}
