import { useMemo } from 'react';
import { useConfig } from './config-context.tsx';
import { createApiClient, type ApiClient } from './api.ts';
import { useAuth } from './auth/auth-context.ts';
import { createGraphqlClient, type GraphqlClient } from './graphql.ts';

/** The function-URL client with the signed-in user's access token. */
export function useApiClient(): ApiClient {
  const { getAccessToken } = useAuth();
  return useMemo(() => createApiClient({ getAccessToken }), [getAccessToken]);
}

/** The GraphQL client with the signed-in user's access token. */
export function useGraphqlClient(): GraphqlClient {
  const { getAccessToken } = useAuth();
  const { graphqlUrl } = useConfig();
  return useMemo(() => createGraphqlClient({ url: graphqlUrl, getAccessToken }), [graphqlUrl, getAccessToken]);
}
