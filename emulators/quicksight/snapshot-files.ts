import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { SnapshotOutput } from './state-snapshots.ts';

/**
 * The files snapshot jobs make, kept under the data directory, and the links that download them.
 * Without an S3 destination QuickSight keeps a job's files itself and DescribeDashboardSnapshotJobResult
 * hands out their S3Uri (SnapshotJobS3Result, "The Amazon S3 Uri", pattern `^(https|s3)://...`); the
 * emulator serves them from its own listener, each link holding an unguessable token (256 random
 * bits, only its SHA-256 kept) and working for SNAPSHOT_LINK_LIFETIME_MS after it was handed out.
 * The reference gives the link no lifetime: the emulator's is the 5 minutes QuickSight documents for
 * the other links it hands out (GenerateEmbedUrlForAnonymousUser's URL "is valid for 5 minutes after it is
 * generated", https://docs.aws.amazon.com/quicksight/latest/APIReference/API_GenerateEmbedUrlForAnonymousUser.html).
 * Links live in memory only: after a restart the caller asks for the result again.
 * A refused link answers as S3 answers a presigned URL it refuses: 403 with an XML AccessDenied.
 */

const SNAPSHOT_LINK_LIFETIME_MS = 5 * 60_000;
const DOWNLOAD_ROUTE = /^\/snapshot-files\/([A-Za-z0-9_-]{43})\/([^/]+)$/;
const FILE_ID = /^[0-9a-f-]{36}$/;

interface SnapshotLink {
  readonly file: SnapshotOutput;
  readonly expiresAt: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class SnapshotFiles {
  private readonly links = new Map<string, SnapshotLink>();

  constructor(private readonly dir: string) {}

  /** Keeps a file's bytes; returns its fileId. */
  async write(bytes: Uint8Array): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const fileId = randomUUID();
    await writeFile(path.join(this.dir, fileId), bytes, { mode: 0o600 });
    return fileId;
  }

  async remove(fileIds: readonly string[]): Promise<void> {
    for (const fileId of fileIds) {
      if (FILE_ID.test(fileId)) await rm(path.join(this.dir, fileId), { force: true });
    }
  }

  /** A new download link's path (from the origin) for a file, working until `now` + the lifetime. */
  link(file: SnapshotOutput, now: number): string {
    for (const [hash, link] of this.links) if (link.expiresAt < now) this.links.delete(hash);
    const token = randomBytes(32).toString('base64url');
    this.links.set(sha256(token), { file, expiresAt: now + SNAPSHOT_LINK_LIFETIME_MS });
    return `/snapshot-files/${token}/${encodeURIComponent(file.fileName)}`;
  }

  /** Answers a download link's request; false for paths that are not download links. */
  async serve(request: IncomingMessage, response: ServerResponse, url: URL, now: number): Promise<boolean> {
    if (!url.pathname.startsWith('/snapshot-files/')) return false;
    const match = DOWNLOAD_ROUTE.exec(url.pathname);
    const link = match ? this.links.get(sha256(match[1] ?? '')) : undefined;
    if (!link || link.expiresAt < now || encodeURIComponent(link.file.fileName) !== match?.[2]) {
      refuse(response, link && link.expiresAt < now ? 'Request has expired' : 'Access Denied');
      return true;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' });
      response.end();
      return true;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(this.dir, link.file.fileId));
    } catch {
      refuse(response, 'Access Denied');
      return true;
    }
    response.writeHead(200, {
      'Content-Type': link.file.contentType,
      'Content-Length': String(bytes.length),
      'Content-Disposition': `attachment; filename="${link.file.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    response.end(request.method === 'HEAD' ? undefined : bytes);
    return true;
  }
}

function refuse(response: ServerResponse, message: string): void {
  response.writeHead(403, { 'Content-Type': 'application/xml', 'Cache-Control': 'no-store' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message}</Message></Error>`,
  );
}
