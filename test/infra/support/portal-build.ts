import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { BUNDLING_STACKS, PATH_METADATA_ENABLE_CONTEXT } from 'aws-cdk-lib/cx-api';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type PortalConfig } from '#lib/config.ts';
import { addPortal } from '#lib/portal-app.ts';
import type { PortalStack } from '#lib/portal-stack.ts';

const cdkJson = JSON.parse(readFileSync(fileURLToPath(new URL('../../../cdk.json', import.meta.url)), 'utf8')) as {
  context: Record<string, unknown>;
};

export interface PortalBuild {
  readonly app: App;
  readonly stack: PortalStack;
  readonly config: PortalConfig;
  readonly template: Template;
  /** The cloud assembly directory (holds validation-report.json). */
  readonly outdir: string;
  /** Removes the temporary directories. */
  dispose(): void;
  /** Removes them even for a shared build (at the end of the process). */
  disposeNow(): void;
}

export interface PortalBuildOptions {
  /** Context values on top of cdk.json's, as `-c key=value` would give them. */
  readonly context?: Record<string, unknown>;
  /** Bundle the handlers with esbuild (slower); otherwise CDK skips bundling. */
  readonly bundle?: boolean;
}

/** A tiny stand-in for the built SPA: the stack only needs index.html and a hashed bundle. */
function writeWebBuild(directory: string): void {
  mkdirSync(join(directory, 'assets'), { recursive: true });
  writeFileSync(
    join(directory, 'index.html'),
    '<!doctype html><title>Portal</title><script type="module" src="/assets/index-3f2a1b.js"></script>',
  );
  writeFileSync(join(directory, 'assets', 'index-3f2a1b.js'), 'document.title = "Portal";');
}

/**
 * Builds and synthesizes the portal app as `cdk synth` does (cdk.json context, compliance
 * packs, the built-in CloudFormation validator), with a placeholder web build. Synthesis
 * throws if any validation plugin reports an unacknowledged finding.
 */
export function buildPortal(options: PortalBuildOptions = {}): PortalBuild {
  const root = mkdtempSync(join(tmpdir(), 'portal-infra-'));
  const webAssetDirectory = join(root, 'web-dist');
  writeWebBuild(webAssetDirectory);
  const outdir = join(root, 'cdk.out');
  const app = new App({
    outdir,
    context: {
      ...cdkJson.context,
      // As the CDK CLI does: construct paths in the template's metadata.
      [PATH_METADATA_ENABLE_CONTEXT]: true,
      ...options.context,
      ...(options.bundle ? {} : { [BUNDLING_STACKS]: [] }),
    },
  });
  const config = loadConfig((key) => app.node.tryGetContext(key));
  const stack = addPortal(app, { config, webAssetDirectory });
  const template = Template.fromStack(stack);
  const dispose = () => rmSync(root, { recursive: true, force: true });
  return { app, stack, config, template, outdir, dispose, disposeNow: dispose };
}

/** Builds made once per test process by {@link sharedPortalBuild}, removed when it exits. */
const sharedBuilds = new Map<string, PortalBuild>();

/**
 * The build of these options, synthesized once per test process and shared by every test file
 * the process runs (the infra project runs its files in shared workers): for tests that only
 * read the app, its template and its cloud assembly. A test that changes the app takes its
 * own {@link buildPortal}. Its `dispose` does nothing; the directories go when the process exits.
 */
export function sharedPortalBuild(options: PortalBuildOptions = {}): PortalBuild {
  const key = JSON.stringify(options);
  let build = sharedBuilds.get(key);
  if (build === undefined) {
    if (sharedBuilds.size === 0) process.once('exit', () => sharedBuilds.forEach((shared) => shared.disposeNow()));
    const made = buildPortal(options);
    build = { ...made, dispose: () => undefined, disposeNow: made.dispose };
    sharedBuilds.set(key, build);
  }
  return build;
}

/** Every IAM policy statement of a template: inline, customer-managed and role policies. */
export function policyStatements(template: Template): { resource: string; statement: Record<string, unknown> }[] {
  const statements: { resource: string; statement: Record<string, unknown> }[] = [];
  const collect = (resource: string, document: unknown) => {
    const list = (document as { Statement?: unknown })?.Statement;
    for (const statement of Array.isArray(list) ? list : [])
      statements.push({ resource, statement: statement as Record<string, unknown> });
  };
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const [id, resource] of Object.entries(template.findResources(type)))
      collect(id, resource.Properties?.PolicyDocument);
  }
  for (const [id, resource] of Object.entries(template.findResources('AWS::IAM::Role'))) {
    for (const policy of (resource.Properties?.Policies ?? []) as { PolicyDocument: unknown }[])
      collect(id, policy.PolicyDocument);
  }
  return statements;
}

export const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Logical id of the single resource of a type whose construct path contains `pathPart`. */
export function logicalIdAt(template: Template, type: string, pathPart: string): string {
  const matches = Object.entries(template.findResources(type)).filter(([, resource]) =>
    String(resource.Metadata?.['aws:cdk:path'] ?? '').includes(pathPart),
  );
  if (matches.length !== 1) throw new Error(`Expected one ${type} under ${pathPart}, found ${matches.length}`);
  return matches[0]![0];
}
