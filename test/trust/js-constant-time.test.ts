/**
 * The constant-time lint of the js tiers (scripts/constant-time/js-lint.ts,
 * docs/contributing/constant-time.md): over the real files it reports
 * nothing but the argued exceptions, each of which still covers something;
 * it covers every file the js tiers import; and it reports each planted
 * mutation (a branch on a key byte, a lookup indexed by a state word, a
 * `%` of a secret, a ternary on a secret, an early-exit comparison) with
 * its rule and line. Node only (it reads the tree with the TypeScript
 * compiler).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Finding, JS_TIER_FILES, JS_TIER_PUBLIC_FILES, type JsRule, jsTierImports, lintFiles, lintSources } from '../../scripts/constant-time/js-lint.js';

/** The exceptions the tree carries, by file, rule and (for those that declassify a value) name: a new one is argued here too. */
const EXCEPTIONS = [
  'src/argon2/js.ts secret-index reference',
  'src/bcrypt/blowfish.ts secret-index x',
  'src/salsa/js.ts secret-branch',
  'src/scrypt/js.ts secret-index j',
  'src/secretstream/state.ts secret-branch',
  // The output format's name ('uint8array', 'hex', ...), which the caller passes as a string: compared as text, it is no secret
  // (an early exit twice, a branch once); and input()'s choice to copy the caller's array, made from which array it is, its
  // length and whether its memory is shared, never its bytes (an early exit, a branch).
  'src/sodium/codecs.ts early-exit',
  'src/sodium/codecs.ts early-exit',
  'src/sodium/codecs.ts early-exit',
  'src/sodium/codecs.ts secret-branch',
  'src/sodium/codecs.ts secret-branch',
];

describe('the js tiers', () => {
  const started = performance.now();
  const result = lintFiles();
  const ms = performance.now() - started;

  it('have no finding but the argued exceptions, and no stale exception or declaration', (t) => {
    const show = (f: Finding) => `${f.file}:${f.line}:${f.column} ${f.rule}: ${f.text}`;
    assert.deepEqual(result.findings.map(show), []);
    assert.equal(result.files, JS_TIER_FILES.length);
    assert.ok(result.functions > 150, `${result.functions} functions checked`);
    t.diagnostic(`constant-time lint: ${result.files} files, ${result.functions} functions, ${Math.round(ms)} ms`);
  });

  it('carry exactly the exceptions listed here, each covering findings and argued', () => {
    assert.deepEqual(result.exceptions.map((e) => `${e.file} ${e.rule}${e.name ? ` ${e.name}` : ''}`).sort(), EXCEPTIONS);
    for (const e of result.exceptions) {
      assert.ok(e.covers.length > 0 && e.covers.every((f) => f.rule === e.rule), `${e.file}:${e.line}`);
      assert.ok(e.reason.length >= 40, `${e.file}:${e.line} argues its exception`);
    }
    for (const d of result.declarations) assert.ok(d.reason.length >= 30, `${d.file}:${d.line} argues its declaration`);
  });

  it('are every file the js engines import, linted or named as holding no secret', () => {
    const imported = jsTierImports();
    for (const f of [
      'src/chacha/js.ts',
      'src/salsa/js.ts',
      'src/poly1305/js.ts',
      'src/blake3/js.ts',
      'src/serpent/js.ts',
      'src/scrypt/js.ts',
      'src/argon2/js.ts',
      'src/secretstream/js.ts',
    ]) {
      assert.ok(imported.includes(f), f);
    }
    const missing = imported.filter((f) => !JS_TIER_FILES.includes(f) && JS_TIER_PUBLIC_FILES[f] === undefined);
    assert.deepEqual(missing, [], 'files the js tiers import that the lint neither covers nor names as public');
    const stale = Object.keys(JS_TIER_PUBLIC_FILES).filter((f) => !imported.includes(f));
    assert.deepEqual(stale, [], 'files named as public that the js tiers no longer import');
  });
});

/** One planted mutation: the source, and the rule the lint must report on the line marked `// <-`. */
interface Plant {
  rule: JsRule;
  source: string;
}

const PLANTS: Record<string, Plant> = {
  'branch-on-key-byte.ts': {
    rule: 'secret-branch',
    source: `export function f(key: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) {
    const b = key[i & 31];
    if ((b & 1) === 1) out[i] = 1; // <-
  }
}`,
  },
  'lookup-by-state-word.ts': {
    rule: 'secret-index',
    source: `const SBOX = new Uint8Array(256);
export function g(state: Uint32Array, round: number): number {
  let w = state[round & 15] ^ 0x9e3779b9;
  w = (w << 7) | (w >>> 25);
  return SBOX[w & 0xff]; // <-
}`,
  },
  'modulo-of-secret.ts': {
    rule: 'secret-division',
    source: `function word(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}
export function h(key: Uint8Array, n: number): number {
  const w = word(key, 0) >>> 0;
  return w % n; // <-
}`,
  },
  'division-in-floor.ts': {
    rule: 'secret-division',
    source: `export function carry(limbs: Float64Array): number {
  const [a, b] = [limbs[0], 22];
  return Math.floor(a / 4194304) + b; // <-
}`,
  },
  'ternary-on-secret.ts': {
    rule: 'secret-branch',
    source: `export const select = (x: Int32Array, y: number): number =>
  (x[0] > 0 ? y : -y); // <-`,
  },
  'early-exit-comparison.ts': {
    rule: 'early-exit',
    source: `export function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false; // <-
  }
  return true;
}`,
  },
  'early-exit-search.ts': {
    rule: 'early-exit',
    source: `export const zero = (shared: Uint8Array): boolean => shared.some((b) => b !== 0); // <-`,
  },
  'secret-through-a-call.ts': {
    rule: 'secret-index',
    source: `const TABLE = new Uint32Array(16);
function lookup(i: number): number {
  return TABLE[i]; // <-
}
export function k(key: Uint8Array): number {
  return lookup(key[0] & 15) + lookup(3);
}`,
  },
  'logical-as-control.ts': {
    rule: 'secret-branch',
    source: `export function m(tag: Uint8Array, out: Uint8Array): void {
  const ok = tag[0] === 0;
  ok && out.fill(0); // <-
}`,
  },
  'implicit-flow.ts': {
    rule: 'secret-index',
    source: `const T = new Uint8Array(4);
export function n(key: Uint8Array): number {
  let i = 0;
  // constant-time exception (secret-branch): planted: the branch is allowed, what it decides stays secret.
  if (key[0] > 127) i = 1;
  return T[i]; // <-
}`,
  },
  'field-of-class.ts': {
    rule: 'secret-branch',
    source: `export class S {
  private last = 0;
  absorb(data: Uint8Array): void {
    this.last = data[data.length - 1];
  }
  done(): boolean {
    return this.last === 0 ? true : false; // <-
  }
}`,
  },
  'stale-exception.ts': {
    rule: 'stale-exception',
    source: `export function p(n: number): number {
  // constant-time exception (secret-branch): planted: nothing secret here, so this covers nothing. // <-
  return n > 3 ? 1 : 0;
}`,
  },
  'stale-declaration.ts': {
    rule: 'declaration',
    source: `export function q(len: number): number {
  // constant-time: public len: a length, public by default, so this declares nothing. // <-
  return len > 3 ? 1 : 0;
}`,
  },
};

/** What the lint accepts: public loops and lengths, object presence, a declared counter, a constant table, an argued exception. */
const CLEAN = `const ORDER = [0, 5, 10, 15] as const;
export function ok(state: Uint32Array, data: Uint8Array, out?: Uint8Array): Uint8Array {
  const len = data.length;
  const o = out ?? new Uint8Array(len);
  for (let pos = 0; pos < len; pos += 4) {
    const w = state[ORDER[(pos >>> 2) & 3]];
    for (let i = 0; pos + i < len && i < 4; i++) o[pos + i] = data[pos + i] ^ (w >>> (8 * i));
  }
  // constant-time: public c: word 8 is the block counter, which counts blocks.
  const c = (state[8] + 1) | 0;
  state[8] = c;
  if (c === 0) state[9] = (state[9] + 1) | 0;
  return o === data ? data : o;
}
export function pad(n: number): number {
  return (16 - (n % 16)) % 16;
}
`;

/** A declassifying exception, as scrypt's: the index it names is taken as public. */
const DECLASSIFIED = `export function r(v: Uint32Array, x: Uint32Array, n: number): number {
  // constant-time exception (secret-index) for j: planted: an index derived from the state, as in ROMix.
  const j = x[15] & (n - 1);
  return v[j * 16];
}`;

/** A source without its constant-time comments of one form. */
const without = (source: string, comment: RegExp): string => source.replace(comment, '');

describe('planted mutations', () => {
  // One program for every source: the TypeScript library loads once.
  const result = lintSources({
    ...Object.fromEntries(Object.entries(PLANTS).map(([name, p]) => [name, p.source])),
    'clean.ts': CLEAN,
    'clean-bare.ts': without(CLEAN, /\n\s*\/\/ constant-time: public c:[^\n]*/),
    'declassified.ts': DECLASSIFIED,
    'declassified-bare.ts': without(DECLASSIFIED, /\n\s*\/\/ constant-time exception[^\n]*/),
  });
  const of = (file: string): string[] => result.findings.filter((f) => f.file === file).map((f) => `${f.line} ${f.rule}`);

  for (const [name, plant] of Object.entries(PLANTS)) {
    it(`${name}: ${plant.rule}`, () => {
      const line = plant.source.split('\n').findIndex((l) => l.includes('// <-')) + 1;
      const found = of(name);
      assert.ok(found.includes(`${line} ${plant.rule}`), `${plant.rule} on line ${line}; found ${JSON.stringify(found)}`);
      assert.ok(
        found.every((f) => f.startsWith(`${line} `)),
        `nothing but line ${line}: ${JSON.stringify(found)}`,
      );
    });
  }

  it('accepts constant-time code with a declared counter and public arithmetic', () => {
    assert.deepEqual(of('clean.ts'), []);
    assert.ok(result.declarations.some((d) => d.file === 'clean.ts' && d.names.includes('c')));
  });

  it('reports the declared counter once its declaration is taken away', () => {
    const line = without(CLEAN, /\n\s*\/\/ constant-time: public c:[^\n]*/)
      .split('\n')
      .findIndex((l) => l.includes('if (c === 0)'));
    assert.deepEqual(of('clean-bare.ts'), [`${line + 1} secret-branch`]);
  });

  it('takes a declassifying exception away, and the finding it covered comes back', () => {
    assert.deepEqual(of('declassified.ts'), []);
    const used = result.exceptions.filter((e) => e.file === 'declassified.ts');
    assert.deepEqual(
      used.map((e) => [e.rule, e.name, e.covers.map((f) => f.line)]),
      [['secret-index', 'j', [4]]],
    );
    assert.deepEqual(of('declassified-bare.ts'), ['3 secret-index']);
  });
});
