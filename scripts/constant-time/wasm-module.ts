/**
 * The parts of a WebAssembly binary the constant-time check reads
 * (WebAssembly Core Specification 2.0, §5.5 "Modules"): function types,
 * imports, functions and their bodies' byte ranges, globals, exports and
 * the name section's function names. Offsets are the binary's own, so a
 * finding names the byte an engine is given.
 */

export interface FunctionType {
  params: number;
  results: number;
}

export interface WasmFunction {
  index: number;
  name: string;
  type: FunctionType;
  /** Parameters and declared locals: the local indices of the body. */
  locals: number;
  /** The body's first instruction and the offset just past its final `end`. */
  start: number;
  end: number;
}

export interface WasmModule {
  bytes: Uint8Array;
  types: FunctionType[];
  /** Every function by index, imported ones (no body: start = end = 0) first. */
  functions: WasmFunction[];
  globals: number;
  /** The byte range of each section other than custom ones, by id: the code an engine runs. */
  sections: { id: number; start: number; end: number }[];
}

/** A cursor over the binary, reading its LEB128 integers (§5.2.2). */
export class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}

  byte(): number {
    if (this.at >= this.bytes.length) throw new Error(`wasm: read past the end at ${this.at}`);
    return this.bytes[this.at++];
  }

  u32(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      if (shift > 28) throw new Error(`wasm: LEB128 too long at ${this.at}`);
    }
  }

  /** A signed LEB128 of up to `bits` bits, as a bigint (i64.const needs all 64). */
  signed(bits: number): bigint {
    let result = 0n;
    let shift = 0n;
    let b: number;
    do {
      b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
    } while (b & 0x80);
    if (shift < BigInt(bits) && b & 0x40) result -= 1n << shift;
    return result;
  }

  skip(n: number): void {
    this.at += n;
  }

  name(): string {
    const length = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
}

const SECTION = { custom: 0, type: 1, import: 2, function: 3, global: 6, export: 7, code: 10 } as const;

/** A value type's encoding (§5.3.1); reference types carry one byte too. */
function skipValueType(r: Reader): void {
  r.byte();
}

function readTypes(r: Reader): FunctionType[] {
  const types: FunctionType[] = [];
  for (let n = r.u32(); n > 0; n--) {
    if (r.byte() !== 0x60) throw new Error('wasm: a type that is not a function type');
    const params = r.u32();
    r.skip(params);
    const results = r.u32();
    r.skip(results);
    types.push({ params, results });
  }
  return types;
}

/** Imports: functions and globals take the first indices of their spaces (§2.5.10). */
function readImports(r: Reader, types: FunctionType[], functions: WasmFunction[]): number {
  let globals = 0;
  for (let n = r.u32(); n > 0; n--) {
    const name = `${r.name()}.${r.name()}`;
    const kind = r.byte();
    if (kind === 0x00) {
      functions.push({ index: functions.length, name, type: types[r.u32()], locals: 0, start: 0, end: 0 });
    } else if (kind === 0x01) {
      r.byte();
      readLimits(r);
    } else if (kind === 0x02) {
      readLimits(r);
    } else if (kind === 0x03) {
      skipValueType(r);
      r.byte();
      globals++;
    } else throw new Error(`wasm: import kind ${kind}`);
  }
  return globals;
}

function readLimits(r: Reader): void {
  const flags = r.byte();
  r.u32();
  if (flags & 1) r.u32();
}

/** A function body: its local declarations, then the instructions up to its final `end` (§5.5.13). */
function readBody(r: Reader, f: WasmFunction): void {
  const size = r.u32();
  const end = r.at + size;
  let locals = f.type.params;
  for (let groups = r.u32(); groups > 0; groups--) {
    locals += r.u32();
    skipValueType(r);
  }
  f.locals = locals;
  f.start = r.at;
  f.end = end;
  r.at = end;
}

/** The name section's function names (§7.4.3), where the binary has one. */
function readNames(r: Reader, end: number, functions: WasmFunction[]): void {
  while (r.at < end) {
    const id = r.byte();
    const size = r.u32();
    const next = r.at + size;
    if (id === 1) {
      for (let n = r.u32(); n > 0; n--) {
        const index = r.u32();
        const name = r.name();
        if (functions[index]) functions[index].name = name;
      }
    }
    r.at = next;
  }
}

export function readModule(bytes: Uint8Array): WasmModule {
  const r = new Reader(bytes, 8);
  if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('wasm: not a module');
  let types: FunctionType[] = [];
  const functions: WasmFunction[] = [];
  const sections: WasmModule['sections'] = [];
  let globals = 0;
  let bodies = 0;
  const exports: [number, string][] = [];
  while (r.at < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const start = r.at;
    const end = start + size;
    if (id !== SECTION.custom) sections.push({ id, start, end });
    if (id === SECTION.type) types = readTypes(r);
    else if (id === SECTION.import) globals += readImports(r, types, functions);
    else if (id === SECTION.function) {
      for (let n = r.u32(); n > 0; n--)
        functions.push({ index: functions.length, name: `$${functions.length}`, type: types[r.u32()], locals: 0, start: 0, end: 0 });
    } else if (id === SECTION.global) globals += r.u32();
    else if (id === SECTION.export) {
      for (let n = r.u32(); n > 0; n--) {
        const name = r.name();
        const kind = r.byte();
        const index = r.u32();
        if (kind === 0x00) exports.push([index, name]);
      }
    } else if (id === SECTION.code) {
      const first = functions.length - r.u32();
      for (let i = first; i < functions.length; i++) readBody(r, functions[i]);
      bodies = functions.length - first;
    } else if (id === SECTION.custom && r.name() === 'name') readNames(r, end, functions);
    r.at = end;
  }
  // An export's name where the name section gives none.
  for (const [index, name] of exports) if (functions[index].name.startsWith('$')) functions[index].name = name;
  if (bodies === 0 && functions.length > 0) throw new Error('wasm: no code section');
  return { bytes, types, functions, globals, sections };
}
