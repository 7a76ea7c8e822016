/**
 * Limits on one GraphQL request. The AppSync API is deployed with the first two (its
 * `queryDepthLimit` and `resolverCountLimit`), local mode's stand-in enforces the same
 * numbers, and the resolver function enforces the filter depth, so it holds in AWS too.
 */

/** Nested field levels in one operation (`listTableauViews { items { id } } ` is 3). */
export const QUERY_DEPTH_LIMIT = 8;

/**
 * Resolver invocations per request. Every root field (each alias counts) is one call of
 * the resolver function, and no nested field has a resolver, so this caps root fields.
 */
export const RESOLVER_COUNT_LIMIT = 10;

/** Levels of a filter or condition: the filter itself is 1, each `and`/`or`/`not` adds 1. */
export const FILTER_DEPTH_LIMIT = 10;
