/**
 * What a React Native app has and the Hermes shell lacks, installed for the
 * test suite in shells (bundle.ts): `console` (RN's logs), TextEncoder and
 * TextDecoder (UTF-8 only, from the npm `buffer` package the suite already
 * carries), a URL that resolves file and http paths (the tests locate
 * their JSON vectors with it), and `crypto.getRandomValues` standing in for
 * the react-native-get-random-values polyfill that apps install (here from
 * Math.random: for tests only, not secure). Only what is missing is added.
 */
import { Buffer } from 'buffer';

/** Installs the missing globals (a function, not a bare import: package.json's sideEffects lists only the worker, so a bundler would drop that). */
export function installShellGlobals(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const print = g.print as (line: string) => void;

  if (typeof g.console !== 'object') {
    const log = (...args: unknown[]) => print(args.map(String).join(' '));
    g.console = { log, info: log, warn: log, error: log, debug: log };
  }

  if (typeof g.TextEncoder !== 'function') {
    g.TextEncoder = class TextEncoder {
      readonly encoding = 'utf-8';
      encode(text = ''): Uint8Array {
        return new Uint8Array(Buffer.from(String(text), 'utf8'));
      }
    };
  }

  if (typeof g.TextDecoder !== 'function') {
    g.TextDecoder = class TextDecoder {
      readonly encoding = 'utf-8';
      decode(bytes?: ArrayBuffer | ArrayBufferView): string {
        if (bytes === undefined) return '';
        const view = ArrayBuffer.isView(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.from(bytes);
        return view.toString('utf8');
      }
    };
  }

  if (typeof g.URL !== 'function') {
    g.URL = class URL {
      readonly href: string;
      constructor(url: string | URL, base?: string | URL) {
        this.href = resolve(String(url), base === undefined ? '' : String(base));
      }
      get protocol(): string {
        return this.href.slice(0, this.href.indexOf(':') + 1);
      }
      get pathname(): string {
        return this.href.replace(/^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?/i, '').replace(/[?#].*$/, '');
      }
      toString(): string {
        return this.href;
      }
    };
  }

  const crypto = g.crypto as { getRandomValues?: unknown } | undefined;
  if (typeof crypto?.getRandomValues !== 'function') {
    g.crypto = {
      ...crypto,
      getRandomValues<T extends ArrayBufferView>(view: T): T {
        const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
        for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
        return view;
      },
    };
  }
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** `relative` resolved against the absolute `base` (RFC 3986 §5.2, paths only: what the tests need). */
function resolve(relative: string, base: string): string {
  if (ABSOLUTE.test(relative)) return relative;
  if (!ABSOLUTE.test(base)) throw new TypeError(`Invalid URL: ${relative} (base ${base})`);
  const origin = base.match(/^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?/i)![0];
  const basePath = base.slice(origin.length).replace(/[?#].*$/, '');
  const segments = (relative.startsWith('/') ? relative : basePath.slice(0, basePath.lastIndexOf('/') + 1) + relative).split('/');
  const out: string[] = [];
  // segments[0] is the empty string before the leading slash.
  for (let i = 1; i < segments.length; i++) {
    if (segments[i] === '..') out.pop();
    else if (segments[i] !== '.') out.push(segments[i]!);
  }
  // A path ending in . or .. names a directory.
  const last = segments[segments.length - 1];
  if (last === '.' || last === '..') out.push('');
  return `${origin}/${out.join('/')}`;
}
