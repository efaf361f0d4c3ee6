/**
 * The constant-time check over the kernels the package ships: each
 * module's generator run with its lines noted, assembled as the build
 * assembles it (scripts/assemble-kernel.ts), proved to be the same code as
 * the bytes in src/generated/, and analyzed (wasm-taint.ts) with the
 * secrets and exceptions its generator declares.
 */
import { readFileSync } from 'node:fs';
import { KERNELS, KERNEL_SECRETS } from '../../src/kernels.js';
import type { ConstantTimeException, KernelSecrets } from '../../src/wasm/secrets.js';
import { noteGeneratorLines } from '../../src/wasm/wat.js';
import { assembleKernel } from '../assemble-kernel.js';
import { type GeneratorLine, lineAt, readSourceMap } from './source-map.js';
import { decode } from './wasm-instructions.js';
import { Reader, readModule, type WasmModule } from './wasm-module.js';
import { type Finding, analyze } from './wasm-taint.js';

export interface Located extends Finding {
  /** The generator line that emitted the instruction, `src/<family>/kernel.ts:12:5`. */
  source: string;
  /** The declared exception that allows it, if one does. */
  allowedBy?: string;
}

export interface KernelReport {
  name: string;
  functions: number;
  instructions: number;
  findings: Located[];
  /** Declared exceptions whose count is not what was found: a stale declaration is an error too. */
  wrongExceptions: string[];
}

/** The shipped module's bytes, from the hex the build embedded. */
export function shippedKernel(name: string): Uint8Array {
  const text = readFileSync(new URL(`../../src/generated/${name}.ts`, import.meta.url), 'utf8');
  const hex = /'([0-9a-f]+)'/.exec(text)?.[1];
  if (!hex) throw new Error(`constant-time: no hex in src/generated/${name}.ts (run npm run build)`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** Every section but custom ones (names, source map URL): the code and data an engine is given. */
function codeOf(wasm: WasmModule): Buffer {
  return Buffer.concat(wasm.sections.map((s) => wasm.bytes.subarray(s.start - 1, s.end)));
}

/** What `generate` emits, each instruction noted with the generator line that asked for it. */
export function withGeneratorLines(generate: () => string): string {
  noteGeneratorLines(true);
  try {
    return generate();
  } finally {
    noteGeneratorLines(false);
  }
}

/**
 * Checks one module's text against its declaration. `shipped`, when given,
 * must be the same code (the analysis then speaks of the shipped bytes).
 */
export function checkKernelText(name: string, text: string, secrets: KernelSecrets, shipped?: Uint8Array): KernelReport {
  const { bytes, sourceMap } = assembleKernel(name, text, true);
  const wasm = readModule(bytes);
  if (shipped && !codeOf(wasm).equals(codeOf(readModule(shipped)))) {
    throw new Error(`constant-time: kernel ${name}: the generator's code is not the shipped code (run npm run build)`);
  }
  const lines = sourceMap ? readSourceMap(sourceMap) : [];
  const exceptions = secrets.exceptions ?? [];
  const allowed = new Map<ConstantTimeException, number>(exceptions.map((e) => [e, 0]));
  const findings = analyze(wasm, secrets).map((f): Located => {
    const fn = wasm.functions.find((g) => f.offset >= g.start && f.offset < g.end);
    const source = describe(lineAt(lines, f.offset, fn?.start ?? 0));
    const exception = exceptions.find((e) => e.function === f.function && e.rule === f.rule && e.instruction === f.instruction);
    if (exception) allowed.set(exception, (allowed.get(exception) ?? 0) + 1);
    return { ...f, source, allowedBy: exception?.why };
  });
  return {
    name,
    functions: wasm.functions.filter((f) => f.end > f.start).length,
    instructions: countInstructions(wasm),
    findings,
    wrongExceptions: [
      ...exceptions
        .filter((e) => allowed.get(e) !== e.count)
        .map((e) => `${e.function}: ${e.count} ${e.instruction} (${e.rule}) declared, ${allowed.get(e)} found`),
      ...(secrets.publicLoads ?? [])
        .filter((d) => countIn(wasm, d.function, d.instruction) !== d.count)
        .map((d) => `${d.function}: ${d.count} ${d.instruction} declared public, ${countIn(wasm, d.function, d.instruction)} found`),
    ],
  };
}

const describe = (at: GeneratorLine | undefined) => (at ? `${at.source}:${at.line}:${at.column}` : 'no generator line');

/** Instructions named `instruction` in function `name`. */
function countIn(wasm: WasmModule, name: string, instruction: string): number {
  const f = wasm.functions.find((g) => g.name === name);
  if (!f) return 0;
  let n = 0;
  for (const r = new Reader(wasm.bytes, f.start); r.at < f.end; ) if (decode(r, wasm.types).name === instruction) n++;
  return n;
}

/** Instructions in the module's bodies, decoded as the analysis decodes them. */
function countInstructions(wasm: WasmModule): number {
  let n = 0;
  for (const f of wasm.functions) {
    const r = new Reader(wasm.bytes, f.start);
    for (; r.at < f.end; n++) decode(r, wasm.types);
  }
  return n;
}

/** Every shipped kernel, checked. */
export function checkKernels(only?: string[]): KernelReport[] {
  return Object.entries(KERNELS)
    .filter(([name]) => !only || only.includes(name))
    .map(([name, generate]) => checkKernelText(name, withGeneratorLines(generate), KERNEL_SECRETS[name], shippedKernel(name)));
}
