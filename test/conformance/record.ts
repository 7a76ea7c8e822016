import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_SKIP_MARK, type ObservedResponse } from './support/evidence.ts';

/**
 * The evidence record of a conformance run against AWS: when and where it ran (account,
 * alias, region), with which SDK versions, and each case with its result and the responses
 * it saw. Built from vitest's JSON report and the responses the suite's clients recorded.
 */

export interface ConformanceRecord {
  readonly date: string;
  readonly target: 'aws';
  readonly account: { readonly id: string | null; readonly alias: string | null };
  readonly region: string;
  readonly versions: Readonly<Record<string, string>>;
  readonly summary: { readonly passed: number; readonly failed: number; readonly skipped: number };
  readonly cases: readonly RecordedCase[];
}

interface RecordedCase {
  readonly file: string;
  readonly name: string;
  readonly result: 'passed' | 'failed' | 'skipped';
  /** Why a case was skipped on AWS. */
  readonly reason?: string;
  readonly failure?: string;
  readonly responses: readonly Omit<ObservedResponse, 'file' | 'test'>[];
}

/** The part of vitest's JSON report the record reads. */
export interface VitestJsonReport {
  readonly testResults: readonly {
    readonly name: string;
    readonly assertionResults: readonly {
      readonly ancestorTitles: readonly string[];
      readonly title: string;
      readonly status: string;
      readonly failureMessages?: readonly string[] | null;
    }[];
  }[];
}

/** The SDK packages the suite and the product call AWS with. */
const RECORDED_PACKAGES = [
  '@aws-sdk/client-cognito-identity-provider',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  '@aws-sdk/client-quicksight',
  '@aws-sdk/client-sesv2',
  '@aws-sdk/client-s3',
  'amazon-cognito-identity-js',
  'vitest',
];

export function packageVersions(root: string, packages: readonly string[] = RECORDED_PACKAGES): Record<string, string> {
  const versions: Record<string, string> = { node: process.version };
  for (const name of packages) {
    try {
      versions[name] = (
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
      ).version;
    } catch {
      versions[name] = 'not installed';
    }
  }
  return versions;
}

export function buildRecord(input: {
  readonly date: Date;
  readonly account: ConformanceRecord['account'];
  readonly region: string;
  readonly versions: Record<string, string>;
  readonly report: VitestJsonReport;
  /** The JSON lines the suite's clients wrote (support/evidence.ts). */
  readonly responses: string;
  readonly root: string;
}): ConformanceRecord {
  const observed = input.responses
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ObservedResponse);
  const cases: RecordedCase[] = input.report.testResults.flatMap((file) => {
    const path = file.name.startsWith(input.root) ? file.name.slice(input.root.length).replace(/^\//, '') : file.name;
    return file.assertionResults.map((assertion) => {
      const name = [...assertion.ancestorTitles, assertion.title].join(' > ');
      const result = assertion.status === 'passed' ? 'passed' : assertion.status === 'failed' ? 'failed' : 'skipped';
      const mark = assertion.title.indexOf(`(${AWS_SKIP_MARK}`);
      return {
        file: path,
        name,
        result,
        ...(result === 'skipped' &&
          mark !== -1 && { reason: assertion.title.slice(mark + AWS_SKIP_MARK.length + 1, -1).trim() }),
        ...(result === 'failed' && {
          failure: (assertion.failureMessages ?? []).join('\n').split('\n').slice(0, 20).join('\n'),
        }),
        responses: observed
          .filter((response) => response.file === path && response.test === name)
          .map(({ file: _file, test: _test, ...response }) => response),
      };
    });
  });
  const count = (result: RecordedCase['result']) => cases.filter((c) => c.result === result).length;
  return {
    date: input.date.toISOString(),
    target: 'aws',
    account: input.account,
    region: input.region,
    versions: input.versions,
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped') },
    cases,
  };
}

/** conformance-results/<date>-<region>.json, to the second so that runs on one day do not overwrite each other. */
export const recordFileName = (date: Date, region: string): string =>
  `${date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '')}-${region}.json`;
