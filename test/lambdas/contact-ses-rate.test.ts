import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCapture, type MailCapture } from '#emulators/ses/capture.ts';
import { capturedMailListSchema } from '#emulators/ses/messages.ts';
import { type Handler, type Harness, invoke, loadHandler, OTHER_USER, startHarness, USER } from './support/harness.ts';

/**
 * The contact function against local mode's SES in the sandbox, which sends at most 1 email
 * per second and refuses more as throttling (https://docs.aws.amazon.com/ses/latest/dg/quotas.html,
 * https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html).
 */
let h: Harness;
let handler: Handler;
let capture: MailCapture;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-contact-ses-'));
  capture = await startMailCapture({
    host: '127.0.0.1',
    port: 0,
    apiPort: 0,
    dataDir,
    verifiedIdentities: ['portal.example.com'],
  });
  h = await startHarness({ SES_ENDPOINT: capture.sesEndpoint });
  // The real SES client, against the local endpoint.
  h.ses.restore();
  handler = await loadHandler('contact');
});
afterAll(async () => {
  await h.close();
  await capture.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('contact function under the SES sandbox rate', () => {
  it('delivers two messages sent in the same second: the throttled one goes again after the back-off', async () => {
    const started = Date.now();
    const results = await Promise.all(
      [USER, OTHER_USER].map(async (who, index) =>
        invoke(handler, {
          token: await h.token(who),
          body: { email: who.email, subject: `Same second ${index}`, message: 'Sent at once.', priority: 'normal' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    // One of them waited out the rate: at least a second passed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const listed = capturedMailListSchema.parse(await (await fetch(capture.apiUrl)).json());
    expect(listed.map((mail) => mail.subject).sort()).toEqual([
      '[Support][normal] Same second 0',
      '[Support][normal] Same second 1',
    ]);
  });
});
