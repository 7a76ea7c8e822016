import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README and the pages under docs/ link to each other, to headings and to files of the
 * repository: every relative link must reach an existing file, and every anchor a heading of
 * its page, so moving a section cannot leave a dead link behind. Anchors are made as GitHub
 * makes them for a heading: lower case, punctuation dropped, spaces turned into hyphens, a
 * repeated heading numbered (-1, -2 ...).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const docsDir = join(root, 'docs');
const pages = [
  'README.md',
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks, and outside inline code spans when `dropCode` is set. */
function prose(markdown: string, dropCode: boolean): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(dropCode ? line.replace(/`[^`]*`/g, '') : line);
  }
  return lines;
}

/** GitHub's anchor for a heading: made from the text it shows (no code marks, emphasis marks or link targets). */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/(^|[^\p{L}\p{N}])[*_]+|[*_]+(?=[^\p{L}\p{N}]|$)/gu, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown, false)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a page that does not resolve, as `page: target (why)`. */
function brokenLinks(page: string, markdown: string, readPage: (path: string) => string | undefined): string[] {
  const text = prose(markdown, true).join('\n');
  const problems: string[] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const file = path === '' ? page : relative(root, resolve(root, dirname(page), decodeURIComponent(path)));
    const content = readPage(file);
    if (content === undefined) {
      problems.push(`${page}: ${target} (no file ${file})`);
      continue;
    }
    if (anchor !== undefined && !anchorsOf(content).has(anchor))
      problems.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
  }
  return problems;
}

/** A repository file's text ('' for a folder), undefined when it does not exist. */
function readRepositoryFile(path: string): string | undefined {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

describe('links of the README and docs/', () => {
  it('makes anchors as GitHub does, and finds a dead link, a missing heading and a missing file', () => {
    expect(slug('Remembered devices in local mode: device-bound refresh')).toBe(
      'remembered-devices-in-local-mode-device-bound-refresh',
    );
    expect(slug('Usage insight (admin portal, *Insights*)')).toBe('usage-insight-admin-portal-insights');
    expect(slug('Usage insight (admin portal, _Insights_)')).toBe('usage-insight-admin-portal-insights');
    expect(slug('The constructs in `lib/`')).toBe('the-constructs-in-lib');
    expect(slug('snake_case and [a link](x.md)')).toBe('snake_case-and-a-link');
    expect(slug("Beyond the spec's screens")).toBe('beyond-the-specs-screens');
    const pagesHere: Record<string, string> = {
      'docs/a.md': '# A\n\n## Same\n\n## Same\n\n```md\n## Inside a fence\n```\n',
    };
    const read = (path: string) => pagesHere[path];
    const page =
      '[ok](#same-1) [ok](a.md#a) `[code](missing.md)` [gone](#same-2) [fenced](#inside-a-fence) [file](b.md) [web](https://example.com/x#y)';
    expect(brokenLinks('docs/a.md', page, read)).toEqual([
      'docs/a.md: #same-2 (no heading #same-2 in docs/a.md)',
      'docs/a.md: #inside-a-fence (no heading #inside-a-fence in docs/a.md)',
      'docs/a.md: b.md (no file docs/b.md)',
    ]);
  });

  it.each(pages)('%s: every relative link reaches a file, and every anchor a heading of it', (page) => {
    expect(brokenLinks(page, readFileSync(join(root, page), 'utf8'), readRepositoryFile)).toEqual([]);
  });

  it.each(pages)('%s: every repository path it names in code exists', (page) => {
    const named = prose(readFileSync(join(root, page), 'utf8'), false)
      .join('\n')
      .matchAll(/`((?:bench|bin|clients|compliance|contracts|docs|lambdas|lib|local|test|tools|web)\/[^`\s]*)`/g);
    const paths = [...named]
      .map((match) => match[1]!)
      .filter((path) => !/[<>*…]/.test(path) && !path.startsWith('web/dist'));
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const unlinked = pages.filter((page) => page.startsWith('docs/') && !readme.includes(`](${page}`));
    expect(unlinked).toEqual([]);
  });

  it('the README starts with the command that starts local mode and the one that runs every test', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const commands = [...readme.matchAll(/```sh\n([^\n]*)\n```/g)].map((match) => match[1]);
    expect(commands.slice(0, 2)).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });
});

describe('docs/architecture.md', () => {
  const architecture = readFileSync(join(docsDir, 'architecture.md'), 'utf8');

  it('lists every top-level folder of the repository', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
    const folders = [
      ...new Set(tracked.filter((path) => path.includes('/')).map((path) => path.slice(0, path.indexOf('/')))),
    ];
    const present = folders.filter((folder) => existsSync(join(root, folder)));
    expect(present.length).toBeGreaterThan(5);
    expect(present.filter((folder) => !architecture.includes(`| \`${folder}/\` |`))).toEqual([]);
  });

  it('lists every construct file of lib/', () => {
    const files = readdirSync(join(root, 'lib')).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((name) => !architecture.includes(`| \`${name}\` |`))).toEqual([]);
  });
});
