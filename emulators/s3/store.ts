import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The stand-in's buckets on disk: one folder per bucket, one JSON file per object (its key,
 * body, content type, ETag, checksums and time), named by a hash of the key so any key S3
 * accepts makes a valid file name. Each write replaces the file in one rename, so a reader
 * sees the old object or the new one, never a mix, and objects survive restarts.
 */

export interface StoredObject {
  readonly key: string;
  readonly body: Buffer;
  readonly contentType: string;
  /** Quoted MD5 of the body, as S3 reports a single-part upload's ETag. */
  readonly etag: string;
  readonly lastModified: Date;
  /** Checksums the uploader sent and the stand-in verified (`crc32`, `sha256`...), base64 as S3 returns them. */
  readonly checksums: Readonly<Record<string, string>>;
  readonly metadata: Readonly<Record<string, string>>;
}

interface ObjectFile {
  readonly key: string;
  readonly body: string;
  readonly contentType: string;
  readonly etag: string;
  readonly lastModified: string;
  readonly checksums: Record<string, string>;
  readonly metadata: Record<string, string>;
}

const fileName = (key: string) => `${createHash('sha256').update(key, 'utf8').digest('hex')}.json`;

export class ObjectStore {
  private constructor(
    private readonly root: string,
    private readonly buckets: ReadonlySet<string>,
  ) {}

  /** Opens (creating when new) the folders of the given buckets under `root`. */
  static async open(root: string, buckets: readonly string[]): Promise<ObjectStore> {
    for (const bucket of buckets) await mkdir(join(root, bucket), { recursive: true });
    return new ObjectStore(root, new Set(buckets));
  }

  hasBucket(bucket: string): boolean {
    return this.buckets.has(bucket);
  }

  bucketNames(): string[] {
    return [...this.buckets].sort();
  }

  async get(bucket: string, key: string): Promise<StoredObject | undefined> {
    if (!this.buckets.has(bucket)) return undefined;
    let text: string;
    try {
      text = await readFile(join(this.root, bucket, fileName(key)), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const stored = JSON.parse(text) as ObjectFile;
    return { ...stored, body: Buffer.from(stored.body, 'base64'), lastModified: new Date(stored.lastModified) };
  }

  async put(bucket: string, object: StoredObject): Promise<void> {
    if (!this.buckets.has(bucket)) throw new Error(`No bucket ${bucket}`);
    const path = join(this.root, bucket, fileName(object.key));
    const file: ObjectFile = {
      ...object,
      body: object.body.toString('base64'),
      lastModified: object.lastModified.toISOString(),
    };
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    await writeFile(partial, JSON.stringify(file), { mode: 0o600 });
    await rename(partial, path);
  }

  /** Removes the object; removing a missing object is no error (as S3's DeleteObject). */
  async delete(bucket: string, key: string): Promise<void> {
    if (!this.buckets.has(bucket)) throw new Error(`No bucket ${bucket}`);
    await rm(join(this.root, bucket, fileName(key)), { force: true });
  }

  /** The keys of a bucket that start with `prefix`, in UTF-8 binary order as S3 lists them. */
  async keys(bucket: string, prefix = ''): Promise<string[]> {
    if (!this.buckets.has(bucket)) return [];
    const names = (await readdir(join(this.root, bucket))).filter((name) => name.endsWith('.json'));
    const keys: string[] = [];
    for (const name of names) {
      try {
        const { key } = JSON.parse(await readFile(join(this.root, bucket, name), 'utf8')) as ObjectFile;
        if (key.startsWith(prefix)) keys.push(key);
      } catch (error) {
        // Removed meanwhile.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return keys.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  }
}
