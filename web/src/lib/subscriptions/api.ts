import { useMemo } from 'react';
import { z } from 'zod';
import { subscriptionSchema, type CreateSubscriptionInput, type Subscription } from '#contracts/subscriptions.ts';
import type { GraphqlClient } from '../graphql.ts';
import { useGraphqlClient } from '../use-clients.ts';

/** Every field of a Subscription, asked by each of the four operations. */
const SUBSCRIPTION_FIELDS = `
      id
      dashboardId
      dashboardName
      format
      frequency
      weekday
      dayOfMonth
      time
      timeZone
      company
      status
      nextDeliveryAt
      lastDeliveryAt
      lastOutcome
      lastError
      createdAt`;

export const LIST_MY_SUBSCRIPTIONS = /* GraphQL */ `
  query ListMySubscriptions {
    listMySubscriptions {${SUBSCRIPTION_FIELDS}
    }
  }
`;

export const CREATE_SUBSCRIPTION = /* GraphQL */ `
  mutation CreateSubscription($input: CreateSubscriptionInput!) {
    createSubscription(input: $input) {${SUBSCRIPTION_FIELDS}
    }
  }
`;

export const SET_SUBSCRIPTION_PAUSED = /* GraphQL */ `
  mutation SetSubscriptionPaused($id: ID!, $paused: Boolean!) {
    setSubscriptionPaused(id: $id, paused: $paused) {${SUBSCRIPTION_FIELDS}
    }
  }
`;

export const DELETE_SUBSCRIPTION = /* GraphQL */ `
  mutation DeleteSubscription($id: ID!) {
    deleteSubscription(id: $id) {${SUBSCRIPTION_FIELDS}
    }
  }
`;

// A Subscription as the API answers it (contracts/subscriptions.ts subscriptionSchema); any other shape is an error.

const listSchema = z.object({ listMySubscriptions: z.array(subscriptionSchema) });
const createSchema = z.object({ createSubscription: subscriptionSchema });
const setPausedSchema = z.object({ setSubscriptionPaused: subscriptionSchema });
const deleteSchema = z.object({ deleteSubscription: subscriptionSchema });

/** The input as createSubscription takes it: a field that is absent or null is not sent. */
const inputVariable = (input: CreateSubscriptionInput) =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

/** The signed-in user's own subscriptions: the API answers for the caller only. */
function createSubscriptionsApi(client: GraphqlClient) {
  return {
    list: async (): Promise<Subscription[]> =>
      (await client.query(LIST_MY_SUBSCRIPTIONS, {}, listSchema)).listMySubscriptions,
    create: async (input: CreateSubscriptionInput): Promise<Subscription> =>
      (await client.query(CREATE_SUBSCRIPTION, { input: inputVariable(input) }, createSchema)).createSubscription,
    setPaused: async (id: string, paused: boolean): Promise<Subscription> =>
      (await client.query(SET_SUBSCRIPTION_PAUSED, { id, paused }, setPausedSchema)).setSubscriptionPaused,
    remove: async (id: string): Promise<Subscription> =>
      (await client.query(DELETE_SUBSCRIPTION, { id }, deleteSchema)).deleteSubscription,
  };
}

type SubscriptionsApi = ReturnType<typeof createSubscriptionsApi>;

/** The subscriptions API with the signed-in user's access token. */
export function useSubscriptionsApi(): SubscriptionsApi {
  const graphql = useGraphqlClient();
  return useMemo(() => createSubscriptionsApi(graphql), [graphql]);
}

/**
 * What a failed call shows under the screen's title for it: the API's own message (the limit of
 * subscriptions, a dashboard not assigned or not deliverable, one that no longer exists, a network failure).
 */
export const subscriptionErrorText = (error: unknown): string =>
  (error instanceof Error && error.message) || 'Please try again.';
