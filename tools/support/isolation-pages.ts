import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { embedCertificatePath } from '#clients/local-stack.ts';

/**
 * What local QuickSight's embed pages draw for a session, read the way a browser loads them: a
 * GET of the embed URL over https (trusting only the local certificate) redeems the one-time
 * code and sets the session cookie; later loads send that cookie. The pages are drawn on the
 * server, so their HTML holds every row shown. A company-scoped dashboard declares the
 * `company` parameter: a load with `p.company=<name>` draws only the rows of that company the
 * reader may see, so the rows drawn per company are read one company at a time.
 */

export interface DrawnPage {
  readonly status: number;
  /** Rows drawn in the page's tables (distributors, product lines, ...). */
  readonly rows: number;
  /** The companies the page says it draws rows of ("Companies in view: ..."). */
  readonly companiesInView: readonly string[];
  /** The page's heading: the dashboard's title, or why nothing is shown. */
  readonly heading: string;
}

export interface EmbedBrowser {
  /** The first load of an embed URL: redeems its code and keeps the session cookie. */
  open(url: string): Promise<DrawnPage>;
  /** A later load of the same session (its cookie, no code), narrowed to one company when given. */
  reload(url: string, company?: string): Promise<DrawnPage>;
  /** A load of the URL as it was handed out, without the session's cookie (the code again). */
  reuseLink(url: string): Promise<DrawnPage>;
  /** A load of the session's page without its cookie and code (a browser whose session ended). */
  withoutSession(url: string): Promise<DrawnPage>;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Reads what a page draws. */
export function readDrawnPage(status: number, body: string): DrawnPage {
  let rows = 0;
  for (const tbody of body.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)) rows += tbody[1]!.match(/<tr>/g)?.length ?? 0;
  const inView = /<p class="companies">Companies in view: ([^<]*)<\/p>/.exec(body)?.[1];
  const companiesInView =
    inView === undefined
      ? []
      : decodeEntities(inView)
          .split(', ')
          .filter((name) => name !== '');
  const heading = decodeEntities(/<h1>([^<]*)<\/h1>/.exec(body)?.[1] ?? '');
  return { status, rows, companiesInView, heading };
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly setCookie: readonly string[];
}

/** A browser of one local stack's embed pages; it keeps each session's cookie by embed URL. */
export async function localEmbedBrowser(dataDir: string): Promise<EmbedBrowser> {
  const ca = await readFile(embedCertificatePath(dataDir), 'utf8');
  const cookies = new Map<string, string>();
  const get = (url: URL, cookie: string | undefined) =>
    new Promise<Answer>((resolve, reject) => {
      const sent = request(url, { method: 'GET', ca, headers: cookie ? { cookie } : {}, timeout: 30_000 }, (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body += chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, body, setCookie: answer.headers['set-cookie'] ?? [] }),
        );
      });
      sent.on('timeout', () => sent.destroy(new Error(`${url.origin} did not answer within 30 s`)));
      sent.on('error', reject);
      sent.end();
    });
  const withoutCode = (url: string, company?: string) => {
    const address = new URL(url);
    address.searchParams.delete('code');
    if (company !== undefined) address.searchParams.set('p.company', company);
    return address;
  };
  const read = (answer: Answer) => readDrawnPage(answer.status, answer.body);
  return {
    async open(url) {
      const answer = await get(new URL(url), undefined);
      const session = answer.setCookie[0]?.split(';')[0];
      if (session) cookies.set(url, session);
      return read(answer);
    },
    async reload(url, company) {
      const cookie = cookies.get(url);
      if (cookie === undefined) throw new Error(`no session was opened with ${new URL(url).pathname}`);
      return read(await get(withoutCode(url, company), cookie));
    },
    reuseLink: async (url) => read(await get(new URL(url), undefined)),
    withoutSession: async (url) => read(await get(withoutCode(url), undefined)),
  };
}
