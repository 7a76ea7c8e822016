/**
 * The `Sha256` of @aws-crypto/sha256-js as amazon-cognito-identity-js uses it: SHA-256
 * (FIPS 180-4), or HMAC-SHA256 (RFC 2104) when constructed with a key, fed by `update` with
 * bytes or text (UTF-8) and read synchronously with `digestSync`, for the SRP proofs. The
 * build puts it in place of that package (web/vite.config.ts), which with its tslib and UTF-8
 * helpers is about 4 KB gzip of the sign-in page's script budget. The browser's SubtleCrypto
 * cannot stand in: it is asynchronous and the library hashes synchronously.
 * test/web/identity-sha256.test.ts checks it against Node's crypto.
 */

type SourceData = string | ArrayBuffer | ArrayBufferView;

const BLOCK_BYTES = 64;

// prettier-ignore
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const encoder = new TextEncoder();

function bytesOf(data: SourceData): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

const rotate = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The SHA-256 compression function over one 64-byte block. */
function compress(state: Uint32Array, block: Uint8Array, words: Uint32Array): void {
  for (let t = 0; t < 16; t += 1) {
    words[t] = (block[t * 4]! << 24) | (block[t * 4 + 1]! << 16) | (block[t * 4 + 2]! << 8) | block[t * 4 + 3]!;
  }
  for (let t = 16; t < 64; t += 1) {
    const w15 = words[t - 15]!;
    const w2 = words[t - 2]!;
    const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
    const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
    words[t] = (words[t - 16]! + s0 + words[t - 7]! + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state as unknown as [number, number, number, number, number, number, number, number];
  for (let t = 0; t < 64; t += 1) {
    const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + words[t]!) | 0;
    const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  const next = [a, b, c, d, e, f, g, h];
  for (let i = 0; i < 8; i += 1) state[i] = (state[i]! + next[i]!) | 0;
}

/** Plain SHA-256 over the bytes fed to it. */
class Digest {
  private readonly state = Uint32Array.from(INITIAL);
  private readonly buffer = new Uint8Array(BLOCK_BYTES);
  private readonly words = new Uint32Array(64);
  private buffered = 0;
  private length = 0;

  update(bytes: Uint8Array): void {
    this.length += bytes.length;
    for (const byte of bytes) {
      this.buffer[this.buffered++] = byte;
      if (this.buffered === BLOCK_BYTES) {
        compress(this.state, this.buffer, this.words);
        this.buffered = 0;
      }
    }
  }

  finish(): Uint8Array {
    const bits = this.length * 8;
    this.update(Uint8Array.of(0x80));
    while (this.buffered !== 56) this.update(Uint8Array.of(0));
    const trailer = new Uint8Array(8);
    new DataView(trailer.buffer).setUint32(0, Math.floor(bits / 2 ** 32));
    new DataView(trailer.buffer).setUint32(4, bits >>> 0);
    this.update(trailer);
    const out = new Uint8Array(32);
    const view = new DataView(out.buffer);
    this.state.forEach((word, index) => view.setUint32(index * 4, word));
    return out;
  }
}

export class Sha256 {
  private inner = new Digest();
  private readonly outerKey?: Uint8Array;

  constructor(secret?: SourceData) {
    if (secret === undefined) return;
    let key = bytesOf(secret);
    if (key.length > BLOCK_BYTES) {
      const digest = new Digest();
      digest.update(key);
      key = digest.finish();
    }
    const padded = new Uint8Array(BLOCK_BYTES);
    padded.set(key);
    this.outerKey = padded.map((byte) => byte ^ 0x5c);
    this.inner.update(padded.map((byte) => byte ^ 0x36));
  }

  update(data: SourceData): void {
    this.inner.update(bytesOf(data));
  }

  digestSync(): Uint8Array {
    const inner = this.inner.finish();
    if (!this.outerKey) return inner;
    const outer = new Digest();
    outer.update(this.outerKey);
    outer.update(inner);
    return outer.finish();
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.digestSync());
  }
}
