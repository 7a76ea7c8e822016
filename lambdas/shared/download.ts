import * as https from 'node:https';
import * as tls from 'node:tls';

/**
 * The body behind a short-lived link (a snapshot job's file), within `timeoutMs`. `ca` is a
 * certificate trusted besides the public ones: local mode's own, which serves local QuickSight's
 * files over https. Fails with the HTTP status or the network's reason.
 */
export async function download(url: string, options: { readonly ca?: string; readonly timeoutMs: number }) {
  if (options.ca === undefined || !url.startsWith('https:')) {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  const ca = [...tls.rootCertificates, options.ca];
  return new Promise<Uint8Array>((resolve, reject) => {
    const request = https.get(url, { ca, timeout: options.timeoutMs }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`HTTP ${response.statusCode ?? 'error'}`));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`)));
    request.on('error', reject);
  });
}
