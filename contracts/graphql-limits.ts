/**
 * Limits on one GraphQL request. The AppSync API is deployed with the first two (its
 * `queryDepthLimit` and `resolverCountLimit`), local mode's stand-in enforces the same
 * numbers, and the resolver function enforces the filter depth and width, so they hold in
 * AWS too.
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

/**
 * Filter terms in one request, all its root fields (aliases included) together. A term is one
 * comparison (an operator with its operand, e.g. `name: { eq: "Sales" }`) or one part of an
 * `and`, `or` or `not`. Evaluating a filter costs its terms times the items read, so the
 * width is capped as the depth is.
 */
export const FILTER_TERMS_LIMIT = 500;

/**
 * AppSync invokes the resolver once per root field and shows it that field's arguments only,
 * so the request's total is held by giving each of its at most RESOLVER_COUNT_LIMIT root
 * fields an equal share: 10 fields of 50 terms are 500. A filter at the depth limit with two
 * parts on each level has 28 terms; the portal's own largest filter has one (its views by the
 * signed-in email).
 */
export const FILTER_TERMS_PER_FIELD = Math.floor(FILTER_TERMS_LIMIT / RESOLVER_COUNT_LIMIT);
