import { runSimulation } from '@cloud-copilot/iam-simulate';

/**
 * Local mode's IAM: the principals that may call the local AWS endpoints (one per function,
 * with the identity policies of its role in the synthesized template, and the account's
 * administrator) and the evaluation of each call against them by an IAM policy simulator.
 */

export interface PolicyDocument {
  readonly name: string;
  readonly policy: unknown;
}

export interface LocalPrincipal {
  /** For messages: the function's name, or "administrator". */
  readonly name: string;
  /** The caller's ARN as AWS reports it (an assumed-role session for a function). */
  readonly arn: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Identity policies; the administrator has none and may do anything. */
  readonly policies?: readonly PolicyDocument[];
}

/** One AWS action on the resources it touches, with the request's condition keys. */
export interface AwsCall {
  readonly action: string;
  /** Every resource the action is authorized on: all must be allowed ('*' for actions without a resource type). */
  readonly resources: readonly string[];
  readonly context?: Readonly<Record<string, string | string[]>>;
}

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly message: string };

/** Decisions kept per LocalIam: enough for every distinct call of a test run or a day of local use. */
const DECISION_CACHE_SIZE = 5_000;

export class LocalIam {
  private readonly principals = new Map<string, LocalPrincipal>();
  /**
   * A decision is a function of the principal's policies (fixed once it is added), the action, the
   * resource and the condition keys, all in the key: the same call is simulated once. The
   * simulator spends about a millisecond a call, most of it matching resource types, on every call
   * of every function.
   */
  private readonly decisions = new Map<string, Decision>();

  constructor(readonly accountId: string) {}

  add(principal: LocalPrincipal): void {
    if (this.principals.has(principal.accessKeyId))
      throw new Error(`Access key ${principal.accessKeyId} is already in use`);
    this.principals.set(principal.accessKeyId, principal);
  }

  principal(accessKeyId: string): LocalPrincipal | undefined {
    return this.principals.get(accessKeyId);
  }

  secretOf = (accessKeyId: string): string | undefined => this.principals.get(accessKeyId)?.secretAccessKey;

  /** Allowed only when every resource of the call is allowed, as for a multi-resource action in AWS. */
  async authorize(principal: LocalPrincipal, call: AwsCall): Promise<Decision> {
    if (!principal.policies) return { allowed: true };
    const key = JSON.stringify([principal.accessKeyId, call.action, call.resources, sortedContext(call.context)]);
    const known = this.decisions.get(key);
    if (known) return known;
    const decision = await this.simulate(principal, principal.policies, call);
    if (this.decisions.size >= DECISION_CACHE_SIZE) this.decisions.delete(this.decisions.keys().next().value!);
    this.decisions.set(key, decision);
    return decision;
  }

  private async simulate(
    principal: LocalPrincipal,
    policies: readonly PolicyDocument[],
    call: AwsCall,
  ): Promise<Decision> {
    for (const resource of call.resources) {
      const result = await runSimulation(
        {
          request: {
            principal: principal.arn,
            action: call.action,
            resource: { resource, accountId: this.accountId },
            contextVariables: { ...call.context },
          },
          identityPolicies: policies.map((p) => ({ name: p.name, policy: p.policy })),
          serviceControlPolicies: [],
          resourceControlPolicies: [],
        },
        {},
      );
      if (result.resultType === 'error') {
        // The gate asked something IAM cannot answer (a wrong resource ARN for the action): a local mode bug.
        throw new Error(`IAM simulation of ${call.action} on ${resource} failed: ${JSON.stringify(result.errors)}`);
      }
      if (result.overallResult !== 'Allowed') {
        const because =
          result.overallResult === 'ExplicitlyDenied'
            ? `with an explicit deny in an identity-based policy`
            : `because no identity-based policy allows the ${call.action} action`;
        return {
          allowed: false,
          message: `User: ${principal.arn} is not authorized to perform: ${call.action} on resource: ${resource} ${because}`,
        };
      }
    }
    return { allowed: true };
  }
}

const sortedContext = (context: AwsCall['context']) =>
  Object.entries(context ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
