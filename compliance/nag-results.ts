import { Stack, Validations } from 'aws-cdk-lib';
import {
  AwsSolutionsChecks,
  NagRuleCompliance,
  NIST80053R5Checks,
  type IApplyRule,
  type NagPack,
  type NagPackProps,
} from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag 3 reports only violations, so an all-green run leaves no evidence of what was
 * checked. Its packs route every check of every resource through the protected
 * `NagPack.applyRule` hook; the packs below override it to record each applicable result
 * (compliant, acknowledged with its reason, not compliant) and then hand the same result
 * to cdk-nag, which still decides what fails synth.
 */

export type NagOutcome = 'compliant' | 'acknowledged' | 'not compliant';

export interface NagResult {
  readonly pack: string;
  /**
   * Rule id as acknowledgements name it, with the finding suffix when the rule reports several
   * (`AwsSolutions-IAM5[Action::s3:*]`).
   */
  readonly ruleId: string;
  /** Rule id without a finding suffix. */
  readonly rule: string;
  readonly level: string;
  readonly info: string;
  readonly explanation: string;
  readonly constructPath: string;
  readonly logicalId: string;
  readonly stack: string;
  readonly resourceType: string;
  readonly outcome: NagOutcome;
  /** The reason written with the acknowledgement, as recorded on the resource or an ancestor. */
  readonly reason?: string;
  /** Set when the rule could not be evaluated (it threw): cdk-nag counts that as not compliant. */
  readonly error?: string;
}

/** The acknowledgement of a rule id on a resource or its nearest acknowledged ancestor, as cdk-nag looks it up. */
function acknowledgementOf(resource: IConstruct, ruleId: string): { reason: string } | undefined {
  for (let current: IConstruct | undefined = resource; current; current = current.node.scope) {
    for (const entry of current.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !entry.data) continue;
      for (const [qualified, reason] of Object.entries(entry.data as Record<string, unknown>)) {
        // aws-cdk-lib writes 'Annotation::<id>' (older versions 'annotation::<id>').
        if (qualified.replace(/^annotation::/i, '') === ruleId)
          return { reason: typeof reason === 'string' ? reason : '' };
      }
    }
  }
  return undefined;
}

/** Collects the results of every pack of one app. */
export class NagResultLog {
  private readonly entries: NagResult[] = [];
  private readonly packs = new Set<string>();

  /** Called at the start of a pack's run: a second synth replaces that pack's earlier results. */
  startPack(pack: string): void {
    this.packs.add(pack);
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.pack === pack) this.entries.splice(i, 1);
  }

  add(result: NagResult): void {
    this.entries.push(result);
  }

  get results(): readonly NagResult[] {
    return this.entries;
  }

  get packNames(): readonly string[] {
    return [...this.packs];
  }
}

type Evaluation = { readonly value: ReturnType<IApplyRule['rule']> } | { readonly error: Error };

function evaluate(params: IApplyRule): Evaluation {
  try {
    return { value: params.rule(params.node) };
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
}

function record(log: NagResultLog, pack: string, params: IApplyRule, evaluation: Evaluation): void {
  if (!('error' in evaluation) && evaluation.value === NagRuleCompliance.NOT_APPLICABLE) return;
  const rule = `${pack}-${params.ruleSuffixOverride ?? params.rule.name}`;
  const node = params.node;
  const base = {
    pack,
    rule,
    level: params.level,
    info: params.info,
    explanation: params.explanation,
    constructPath: node.node.path,
    logicalId: Stack.of(node).getLogicalId(node),
    stack: Stack.of(node).stackName,
    resourceType: node.cfnResourceType,
  };
  const judged = (ruleId: string, error?: string): NagResult => {
    const ack = acknowledgementOf(node, ruleId);
    return {
      ...base,
      ruleId,
      outcome: ack ? 'acknowledged' : 'not compliant',
      ...(ack && { reason: ack.reason }),
      ...(error && { error }),
    };
  };
  if ('error' in evaluation) return log.add(judged(rule, evaluation.error.message));
  const { value } = evaluation;
  if (value === NagRuleCompliance.COMPLIANT) return log.add({ ...base, ruleId: rule, outcome: 'compliant' });
  if (value === NagRuleCompliance.NON_COMPLIANT) return log.add(judged(rule));
  // A rule that reports individual findings passes when it reports none.
  if (value.length === 0) return log.add({ ...base, ruleId: rule, outcome: 'compliant' });
  for (const finding of value) log.add(judged(`${rule}[${finding}]`));
}

/** Hands cdk-nag the recorded evaluation instead of running the rule a second time. */
function replay(params: IApplyRule, evaluation: Evaluation): IApplyRule {
  const rule = Object.defineProperty(
    () => {
      if ('error' in evaluation) throw evaluation.error;
      return evaluation.value;
    },
    'name',
    { value: params.rule.name },
  ) as IApplyRule['rule'];
  return { ...params, ruleSuffixOverride: params.ruleSuffixOverride ?? params.rule.name, rule };
}

// Mixins need this constructor shape (TypeScript: "a mixin class must have a constructor with a single rest parameter
// of type any[]").
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PackClass = abstract new (...args: any[]) => NagPack;

/** A pack that also records every applicable result in a log. */
export function recording<T extends PackClass>(Pack: T) {
  abstract class Recording extends Pack {
    abstract readonly log: NagResultLog;

    override validateScope(scope: IConstruct) {
      this.log.startPack(this.readPackName);
      return super.validateScope(scope);
    }

    protected override applyRule(params: IApplyRule): void {
      const evaluation = evaluate(params);
      record(this.log, this.readPackName, params, evaluation);
      super.applyRule(replay(params, evaluation));
    }
  }
  return Recording;
}

export class RecordingAwsSolutionsChecks extends recording(AwsSolutionsChecks) {
  constructor(
    readonly log: NagResultLog,
    scope?: IConstruct,
    props?: NagPackProps,
  ) {
    super(scope, props);
  }
}

export class RecordingNist80053R5Checks extends recording(NIST80053R5Checks) {
  constructor(
    readonly log: NagResultLog,
    scope?: IConstruct,
    props?: NagPackProps,
  ) {
    super(scope, props);
  }
}
