/**
 * A synthesized CloudFormation template as the report reads it: resources by logical id,
 * a readable name for each (its construct path within the stack), and CloudFormation values
 * turned into text an auditor can read without the CDK (`Fn::GetAtt` of a table's Arn becomes
 * `Data/Views.Arn`, `Ref AWS::AccountId` becomes `${AWS::AccountId}`).
 */

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, unknown>;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
  readonly DependsOn?: string | string[];
}

export interface CfnTemplate {
  readonly Description?: string;
  readonly Resources: Record<string, TemplateResource>;
  readonly Outputs?: Record<string, unknown>;
}

export interface StackTemplate {
  readonly stackName: string;
  readonly template: CfnTemplate;
  /** Known values of pseudo parameters (`AWS::Region` when the stack has a region). */
  readonly pseudo?: Readonly<Record<string, string>>;
}

export const asList = <T>(value: T | readonly T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? [...(value as T[])] : [value as T];

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The resources of a type, as [logicalId, resource] pairs. */
export function resourcesOfType(template: CfnTemplate, type: string): [string, TemplateResource][] {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}

/** Readable name of a resource: its construct path inside the stack, without the trailing `/Resource`. */
export function resourceName(stack: StackTemplate, logicalId: string): string {
  const path = stack.template.Resources[logicalId]?.Metadata?.['aws:cdk:path'];
  if (typeof path !== 'string') return logicalId;
  return path.replace(`${stack.stackName}/`, '').replace(/\/(Resource|Default)$/, '');
}

/** The logical id an intrinsic points at (`Ref`, `Fn::GetAtt`), or undefined. */
export function referencedId(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.Ref === 'string') return value.Ref;
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  if (typeof getAtt === 'string') return getAtt.split('.')[0];
  return undefined;
}

/** A CloudFormation value as readable text, intrinsics resolved to resource names. */
export function readable(stack: StackTemplate, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((item) => readable(stack, item)).join(', ');
  if (!isRecord(value)) return JSON.stringify(value);
  const name = (id: string) =>
    stack.template.Resources[id] ? resourceName(stack, id) : (stack.pseudo?.[id] ?? `\${${id}}`);
  if (typeof value.Ref === 'string') return name(value.Ref);
  const getAtt = value['Fn::GetAtt'];
  if (getAtt !== undefined) {
    const [id, attribute] = Array.isArray(getAtt) ? getAtt.map(String) : String(getAtt).split('.');
    return `${name(id ?? '')}.${attribute ?? ''}`;
  }
  const join = value['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1]))
    return (join[1] as unknown[]).map((part) => readable(stack, part)).join(String(join[0]));
  const sub = value['Fn::Sub'];
  if (sub !== undefined) {
    const [text, variables] = Array.isArray(sub) ? [String(sub[0]), isRecord(sub[1]) ? sub[1] : {}] : [String(sub), {}];
    return text.replace(/\$\{([^}!]+)\}/g, (whole, ref: string) => {
      if (ref in variables) return readable(stack, variables[ref]);
      const [id, attribute] = ref.split('.');
      if (!id) return whole;
      return attribute ? `${name(id)}.${attribute}` : name(id);
    });
  }
  const select = value['Fn::Select'];
  if (Array.isArray(select)) return `item ${String(select[0])} of (${readable(stack, select[1])})`;
  const split = value['Fn::Split'];
  if (Array.isArray(split)) return `(${readable(stack, split[1])} split on "${String(split[0])}")`;
  const importValue = value['Fn::ImportValue'];
  if (importValue !== undefined) return `export ${readable(stack, importValue)}`;
  const condition = value['Fn::If'];
  if (Array.isArray(condition))
    return `${readable(stack, condition[1])} if ${String(condition[0])}, else ${readable(stack, condition[2])}`;
  return JSON.stringify(value);
}

/** Readable values of a list property (a single value counts as a list of one). */
export const readableList = (stack: StackTemplate, value: unknown): string[] =>
  asList(value).map((item) => readable(stack, item));

/** The acknowledgements written next to a resource by cdk-nag (`Metadata.cdk_nag.rules_to_suppress`). */
export function acknowledgementsOf(resource: TemplateResource): { id: string; reason: string }[] {
  const nag = resource.Metadata?.cdk_nag;
  const rules = isRecord(nag) ? nag.rules_to_suppress : undefined;
  return Array.isArray(rules)
    ? rules
        .filter(isRecord)
        .map((rule) => ({ id: String(rule.id), reason: typeof rule.reason === 'string' ? rule.reason : '' }))
    : [];
}
