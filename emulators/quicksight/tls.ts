import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The certificate of the embed pages. QuickSight's embedding SDK takes only https embed URLs
 * (its URL patterns start with `https://`), so local mode serves them over TLS with a
 * self-signed certificate for localhost, made once with the openssl tool and kept in the data
 * directory. Browsers ask once to trust it (automated browsers are told to ignore it).
 */

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
}

const run = promisify(execFile);
const RENEW_BEFORE_MS = 7 * 24 * 60 * 60_000;

async function readExisting(dir: string): Promise<TlsMaterial | undefined> {
  try {
    const [key, cert] = await Promise.all([
      readFile(join(dir, 'key.pem'), 'utf8'),
      readFile(join(dir, 'cert.pem'), 'utf8'),
    ]);
    const validTo = Date.parse(new X509Certificate(cert).validTo);
    return validTo - Date.now() > RENEW_BEFORE_MS ? { key, cert } : undefined;
  } catch {
    return undefined;
  }
}

/** The key and certificate kept under `dir`, made when missing or about to expire. */
export async function localTlsMaterial(dir: string): Promise<TlsMaterial> {
  const existing = await readExisting(dir);
  if (existing) return existing;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '825',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ]);
  } catch (error) {
    throw new Error(
      `Making the local certificate of the embed pages needs the openssl tool: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const made = await readExisting(dir);
  if (!made) throw new Error(`openssl made no usable certificate in ${dir}`);
  return made;
}
