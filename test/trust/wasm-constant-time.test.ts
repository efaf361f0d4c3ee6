/**
 * The constant-time check over the WebAssembly the package ships
 * (scripts/constant-time/): every kernel passes it, and it fails on each
 * fault planted in a real kernel's generator output, naming the function,
 * the instruction's offset and the line that planted it. The faults are
 * written with the generators' own vocabulary (src/wasm/wat.ts), so the
 * line the check reports is this file's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type KernelReport, checkKernelText, checkKernels, withGeneratorLines } from '../../scripts/constant-time/kernels.js';
import { readModule } from '../../scripts/constant-time/wasm-module.js';
import { analyze } from '../../scripts/constant-time/wasm-taint.js';
import { KERNELS, KERNEL_SECRETS } from '../../src/kernels.js';
import * as B from '../../src/blake3/layout.js';
import { BLOCK, BUFFER, STATE } from '../../src/salsa/layout.js';
import type { ConstantTimeRule } from '../../src/wasm/secrets.js';
import { type Expr, call, get, i32, ifThen, instruction, select, setGlobal, whileLoop } from '../../src/wasm/wat.js';

const THIS_FILE = 'test/trust/wasm-constant-time.test.ts';
/** Word 1 of the Salsa20 state: the key's first word (the key in words 1..4 and 11..14). */
const KEY_BYTE = STATE + 4;
const STATE_WORD = STATE + 8;

describe('the constant-time check over the shipped kernels', () => {
  const reports = checkKernels();

  it('checks every module the build makes, all of its code', () => {
    assert.deepEqual(reports.map((r) => r.name).sort(), Object.keys(KERNELS).sort());
    // A floor, not a size: a module read as empty fails it, the smallest (SipHash) has about 500.
    for (const r of reports) {
      assert.ok(r.functions > 0 && r.instructions > 300, `${r.name}: ${r.functions} functions, ${r.instructions} instructions`);
    }
  });

  for (const name of Object.keys(KERNELS)) {
    it(`${name}: no finding but those its generator declares and argues`, () => {
      const report = reports.find((r) => r.name === name) as KernelReport;
      const open = report.findings.filter((f) => !f.allowedBy);
      assert.deepEqual(
        open.map((f) => `${f.function} +${f.offset} ${f.instruction} ${f.rule} (${f.source})`),
        [],
      );
      assert.deepEqual(report.wrongExceptions, []);
    });
  }

  it("scrypt's one exception is the four loads of V[j], at the generator's line", () => {
    const allowed = (reports.find((r) => r.name === 'scrypt') as KernelReport).findings;
    assert.equal(allowed.length, 4);
    for (const f of allowed) {
      assert.equal(f.function, 'mix');
      assert.match(f.source, /^src\/scrypt\/kernel\.ts:\d+:\d+$/);
    }
  });

  it("Argon2's allowed findings are fill_dependent's reads of the reference block, and fill_independent has none", () => {
    for (const name of ['argon2', 'argon2_shared']) {
      const allowed = (reports.find((r) => r.name === name) as KernelReport).findings;
      assert.equal(allowed.length, 64, name);
      for (const f of allowed) {
        assert.match(f.function, /^fill_dependent_(shuffle|shift)$/);
        assert.equal(f.instruction, 'v128.load');
        assert.match(f.source, /^src\/argon2\/kernel\.ts:\d+:\d+$/);
      }
    }
  });
});

/** The salsa module's text, with the code `fault` emits (its lines noted) as the first statement of function `fn`. */
function plant(fn: string, fault: () => Expr): string {
  const text = withGeneratorLines(KERNELS.salsa);
  const header = text.indexOf(`(func $${fn} `);
  assert.ok(header >= 0, `no function ${fn}`);
  const body = text.indexOf('\n', header) + 1;
  return `${text.slice(0, body)}${withGeneratorLines(fault)}\n${text.slice(body)}`;
}

const ourLines = readFileSync(new URL(import.meta.url), 'utf8').split('\n');

/**
 * Plants `fault` in hsalsa_rekey and expects a finding of `rule` there,
 * reported at the line of this file that wrote the faulty instruction
 * (the one holding `written`).
 */
function expectFinding(rule: ConstantTimeRule, written: string, fault: () => Expr): void {
  const report = checkKernelText('salsa', plant('hsalsa_rekey', fault), KERNEL_SECRETS.salsa);
  const open = report.findings.filter((f) => !f.allowedBy);
  const match = open.find((f) => f.rule === rule && f.function === 'hsalsa_rekey');
  assert.ok(match, `no ${rule} finding in hsalsa_rekey; found ${JSON.stringify(open)}`);
  assert.ok(match.offset > 0);
  const [file, line] = match.source.split(':');
  assert.equal(file, THIS_FILE);
  assert.ok(ourLines[Number(line) - 1].includes(written), `line ${line}: ${ourLines[Number(line) - 1]}`);
}

describe('the constant-time check fails on planted faults', () => {
  it('a branch on a key byte', () => {
    expectFinding('branch', 'ifThen(', () => ifThen(i32.load8(i32.const(KEY_BYTE)), [i32.store(i32.const(BLOCK), i32.const(1))]));
  });

  it('a loop that runs as many times as a key byte says (br_if)', () => {
    expectFinding('branch', 'whileLoop(', () =>
      whileLoop('leak', i32.load8(i32.const(KEY_BYTE)), [i32.store(i32.const(BLOCK), i32.add(i32.load(i32.const(BLOCK)), i32.const(1)))]),
    );
  });

  it('a table lookup indexed by a state word', () => {
    expectFinding('address', 'i32.load(i32.add(', () =>
      i32.store(i32.const(BLOCK), i32.load(i32.add(i32.const(BUFFER), i32.and(i32.load(i32.const(STATE_WORD)), i32.const(1020))))),
    );
  });

  it('a select on a secret condition', () => {
    expectFinding('select', 'select(', () =>
      i32.store(i32.const(BLOCK), select(get('counterLow'), i32.load(i32.const(BLOCK + 4)), i32.load(i32.const(STATE_WORD)))),
    );
  });

  it('a division of a secret', () => {
    expectFinding('variable-time', 'i32.div_u', () =>
      i32.store(i32.const(BLOCK), instruction('i32.div_u')(i32.load(i32.const(STATE_WORD)), i32.or(get('counterLow'), i32.const(1)))),
    );
  });

  it('a remainder by a secret', () => {
    expectFinding('variable-time', 'i64.rem_u', () =>
      i32.store(i32.const(BLOCK), i32.wrap(instruction('i64.rem_u')(i64Of(get('counterLow')), i64Of(i32.or(i32.load(i32.const(KEY_BYTE)), i32.const(1)))))),
    );
  });

  it('a store at a secret address', () => {
    expectFinding('address', 'i32.store(i32.add(', () =>
      i32.store(i32.add(i32.const(BUFFER), i32.and(i32.load(i32.const(KEY_BYTE)), i32.const(1020))), i32.const(0)),
    );
  });

  it('a memory.copy whose length is secret', () => {
    expectFinding('address', 'memory.copy', () =>
      instruction('memory.copy')(i32.const(BLOCK), i32.const(BUFFER), i32.and(i32.load(i32.const(KEY_BYTE)), i32.const(31))),
    );
  });

  it('a secret carried through a global to a branch in another function', () => {
    // box_init sets $fresh, and the box calls branch on it: a key word there is found where it is branched on.
    const text = plant('box_init', () => setGlobal('fresh', i32.load(i32.const(KEY_BYTE))));
    const report = checkKernelText('salsa', text, KERNEL_SECRETS.salsa);
    const branches = report.findings.filter((f) => f.rule === 'branch' && f.function !== 'box_init');
    assert.ok(branches.length > 0, JSON.stringify(report.findings));
  });

  it("a secret passed as a call's pointer, used as an address in the callee", () => {
    const text = plant('hsalsa_rekey', () => call('salsa_group', i32.load(i32.const(KEY_BYTE)), i32.const(10)));
    const report = checkKernelText('salsa', text, KERNEL_SECRETS.salsa);
    assert.ok(
      report.findings.some((f) => f.rule === 'address'),
      JSON.stringify(report.findings.slice(0, 5)),
    );
  });
});

/** i64.extend_i32_u, the vocabulary's i64.extend. */
const i64Of = (x: Expr): Expr => instruction('i64.extend_i32_u')(x);

describe("the check's own limits", () => {
  it('a secret stored where BLAKE3 declares its counts public is a finding', () => {
    const text = withGeneratorLines(KERNELS.blake3);
    const header = text.indexOf('(func $finish ');
    const body = text.indexOf('\n', header) + 1;
    const fault = withGeneratorLines(() => i32.store(i32.const(B.DEPTH), i32.load(i32.const(B.KEY))));
    const planted = `${text.slice(0, body)}${fault}\n${text.slice(body)}`;
    const report = checkKernelText('blake3', planted, KERNEL_SECRETS.blake3);
    assert.ok(report.findings.some((f) => f.rule === 'public-memory' && f.function === 'finish'));
  });

  it('an exception whose count no longer matches is reported', () => {
    const declared = KERNEL_SECRETS.scrypt.exceptions ?? [];
    const stale = { exceptions: declared.map((e) => ({ ...e, count: e.count + 1 })) };
    const report = checkKernelText('scrypt', withGeneratorLines(KERNELS.scrypt), stale);
    assert.equal(report.wrongExceptions.length, declared.length);
  });

  it("without Argon2's declared public loads, argon2i's reference blocks are secret addresses", () => {
    const { publicLoads: _, ...undeclared } = KERNEL_SECRETS.argon2;
    const report = checkKernelText('argon2', withGeneratorLines(KERNELS.argon2), undeclared);
    const open = report.findings.filter((f) => !f.allowedBy && f.function.startsWith('fill_independent_'));
    assert.ok(open.length > 0 && open.every((f) => f.rule === 'address'), JSON.stringify(open.slice(0, 3)));
  });

  it('a public-load declaration whose count no longer matches is reported', () => {
    const declared = KERNEL_SECRETS.argon2;
    const stale = { ...declared, publicLoads: (declared.publicLoads ?? []).map((d) => ({ ...d, count: d.count - 1 })) };
    const report = checkKernelText('argon2', withGeneratorLines(KERNELS.argon2), stale);
    assert.deepEqual(report.wrongExceptions, [
      'fill_independent_shuffle: 1 i64.load declared public, 2 found',
      'fill_independent_shift: 1 i64.load declared public, 2 found',
    ]);
  });

  it('an instruction the table does not know stops the check rather than passing it', () => {
    // A module whose one function holds an atomic (0xFE prefix): header, type, function, code sections.
    const bytes = Uint8Array.from([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x0a, 0x07, 0x01, 0x05, 0x00, 0xfe, 0x03,
      0x00, 0x0b,
    ]);
    assert.throws(() => analyze(readModule(bytes)), /not in the table/);
  });
});
