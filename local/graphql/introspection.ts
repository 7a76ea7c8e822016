import { GraphQLError, type ValidationRule } from 'graphql';

/**
 * The deployed API has introspection disabled (lib/graphql-api.ts, `introspectionConfig:
 * DISABLED`). AppSync then answers an operation that uses it with a validation error, and no
 * resolver runs:
 * - https://docs.aws.amazon.com/appsync/latest/devguide/configuration-limits.html (Using the
 *   introspection feature: with the feature disabled, "a validation error will appear in the
 *   response", pictured as the error for a field the type does not define);
 * - https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/appsync/aws.sdk.kotlin.services.appsync.model/-create-graphql-api-request/introspection-config.html
 *   (the CreateGraphqlApi model: the field "will produce an error if the operation attempts to
 *   use the introspection feature while this field is disabled").
 * So `__schema` and `__type` read as fields the type does not define, in the words AppSync's
 * validation uses for one (FieldUndefined). `__typename` names an object's type without
 * describing the schema, and clients rely on it: it is still answered.
 */
const INTROSPECTION_FIELDS: ReadonlySet<string> = new Set(['__schema', '__type']);

const introspectionDisabledMessage = (field: string, typeName: string): string =>
  `Validation error of type FieldUndefined: Field '${field}' in type '${typeName}' is undefined @ '${field}'`;

/** A validation rule refusing `__schema` and `__type` wherever they are selected. */
export const NoIntrospection: ValidationRule = (context) => ({
  Field(node) {
    const field = node.name.value;
    if (!INTROSPECTION_FIELDS.has(field)) return;
    const typeName = context.getParentType()?.name ?? 'Query';
    context.reportError(new GraphQLError(introspectionDisabledMessage(field, typeName), { nodes: node }));
  },
});
