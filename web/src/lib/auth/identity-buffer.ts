/**
 * The part of Node's `Buffer` that amazon-cognito-identity-js calls (`Buffer.from` of text
 * in utf8, hex or base64, of bytes and of byte arrays; `Buffer.concat`; `toString` in those
 * encodings), on the browser's own Uint8Array, TextEncoder and base64 functions. The build
 * resolves the library's `import { Buffer } from 'buffer'` here (web/vite.config.ts): the
 * general polyfill costs about 6 KB gzip of the sign-in page's 108 KB script budget.
 * test/web/identity-buffer.test.ts checks it against Node's Buffer.
 */

type Encoding = 'utf8' | 'utf-8' | 'hex' | 'base64';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A Uint8Array that prints itself as Node's Buffer does. */
class ByteBuffer extends Uint8Array {
  override toString(encoding: Encoding = 'utf8'): string {
    switch (encoding) {
      case 'hex':
        return Array.from(this, (byte) => byte.toString(16).padStart(2, '0')).join('');
      case 'base64': {
        let binary = '';
        for (let index = 0; index < this.length; index += 0x8000) {
          binary += String.fromCharCode(...this.subarray(index, index + 0x8000));
        }
        return btoa(binary);
      }
      default:
        return decoder.decode(this);
    }
  }
}

function decodeHex(text: string): Uint8Array {
  // As Node: the bytes up to the first pair that is not hex.
  const bytes: number[] = [];
  for (let index = 0; index + 1 < text.length; index += 2) {
    const pair = text.slice(index, index + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
    bytes.push(parseInt(pair, 16));
  }
  return Uint8Array.from(bytes);
}

function decodeBase64(text: string): Uint8Array {
  // As Node: standard and URL-safe alphabets, padding optional, other characters skipped.
  const clean = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[^A-Za-z0-9+/]/g, '');
  const usable = clean.length % 4 === 1 ? clean.slice(0, -1) : clean;
  const binary = atob(usable.padEnd(Math.ceil(usable.length / 4) * 4, '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

function bytesOf(value: string | ArrayLike<number> | ArrayBufferView, encoding: Encoding): Uint8Array {
  if (typeof value === 'string') {
    if (encoding === 'hex') return decodeHex(value);
    if (encoding === 'base64') return decodeBase64(value);
    return encoder.encode(value);
  }
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return Uint8Array.from(value);
}

export const Buffer = {
  from(value: string | ArrayLike<number> | ArrayBufferView, encoding: Encoding = 'utf8'): ByteBuffer {
    const bytes = bytesOf(value, encoding);
    const copy = new ByteBuffer(bytes.length);
    copy.set(bytes);
    return copy;
  },
  concat(list: readonly Uint8Array[]): ByteBuffer {
    const joined = new ByteBuffer(list.reduce((total, part) => total + part.length, 0));
    let offset = 0;
    for (const part of list) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  },
  isBuffer: (value: unknown): value is ByteBuffer => value instanceof ByteBuffer,
};
