/**
 * Taint analysis of a WebAssembly module for constant time: which values
 * may depend on a secret, and whether any of them decides a branch, a
 * `select`, an address, or the time of a variable-time instruction.
 *
 * Secret: every byte of linear memory (keys, states, data, and what the
 * kernel wrote there) unless the kernel declares a range public, and any
 * parameter a kernel declares secret. Public: parameters (pointers,
 * lengths, counts), constants and mutable globals until a secret is
 * written to one. Taint follows values through the stack, locals (a local
 * is secret if any value ever set to it is), globals, calls (a callee's
 * parameter is secret if any caller passes a secret), block results and
 * memory; the module is walked until nothing more becomes secret. The
 * analysis does not follow control dependence: a branch on a secret is a
 * finding in itself, so none is left for a value to depend on.
 */
import type { ConstantTimeRule, KernelSecrets } from '../../src/wasm/secrets.js';
import { type Decoded, type Instruction, decode } from './wasm-instructions.js';
import { Reader, type WasmFunction, type WasmModule } from './wasm-module.js';

export type Rule = ConstantTimeRule;

export const RULES: Record<Rule, string> = {
  branch: 'a branch (if, br_if, br_table) on a secret condition',
  select: 'a select on a secret condition',
  address: 'a memory or table address computed from a secret',
  'variable-time': 'a variable-time instruction (division, remainder, square root) on a secret operand',
  'public-memory': 'a secret stored into memory declared public',
};

export interface Finding {
  function: string;
  /** The instruction's offset in the module's bytes. */
  offset: number;
  instruction: string;
  rule: Rule;
}

interface Value {
  secret: boolean;
  /** An i32.const's value, so that a load from a fixed address can be told public. */
  constant?: number;
}

const PUBLIC: Value = { secret: false };
const SECRET: Value = { secret: true };

/** What a program point knows: which locals may hold a secret, and the stack. */
interface State {
  locals: boolean[];
  stack: Value[];
}

/** The states branches carry to a block's end (or a loop's start), joined. */
interface Frame {
  kind: 'function' | 'block' | 'loop' | 'if';
  /** Values a branch to this frame carries: a block's results, a loop's parameters. */
  arity: number;
  carried: State | null;
}

/** A decoded body: each structured instruction knows where its `else` and `end` are. */
interface Body {
  code: Decoded[];
  end: number[];
  else: number[];
}

const copy = (s: State): State => ({ locals: [...s.locals], stack: [...s.stack] });
const any = (values: Value[]): Value => (values.some((v) => v.secret) ? SECRET : PUBLIC);

/** The join of two states whose stacks have the same height (null: unreachable). */
function join(a: State | null, b: State | null): State | null {
  if (!a) return b && copy(b);
  if (!b) return a;
  return {
    locals: a.locals.map((x, i) => x || b.locals[i]),
    stack: a.stack.map((v, i) => (v.secret || b.stack[i].secret ? SECRET : v.constant === b.stack[i].constant ? v : PUBLIC)),
  };
}

const same = (a: State, b: State) => a.locals.every((x, i) => x === b.locals[i]) && a.stack.every((v, i) => v.secret === b.stack[i].secret);

function decodeBody(wasm: WasmModule, f: WasmFunction): Body {
  const r = new Reader(wasm.bytes, f.start);
  const code: Decoded[] = [];
  const end: number[] = [];
  const otherwise: number[] = [];
  const open: number[] = [];
  while (r.at < f.end) {
    const i = code.length;
    const d = decode(r, wasm.types);
    code.push(d);
    if (d.op.kind === 'block' || d.op.kind === 'loop' || d.op.kind === 'if') open.push(i);
    else if (d.op.kind === 'else') otherwise[open[open.length - 1]] = i;
    else if (d.op.kind === 'end' && open.length > 0) end[open.pop() as number] = i;
  }
  if (open.length > 0) throw new Error(`constant-time: ${f.name}: a block without its end`);
  return { code, end, else: otherwise };
}

/**
 * Analyzes a module (see the file's header); findings sorted by offset.
 * Locals are followed per program point, joined where control flow
 * meets and iterated around loops, since binaryen's register allocation
 * reuses one local for a public length and, later, a secret word.
 */
export function analyze(wasm: WasmModule, secrets: KernelSecrets = {}): Finding[] {
  const params = wasm.functions.map((f) => new Array<boolean>(f.type.params).fill(false));
  const results = wasm.functions.map((f) => new Array<boolean>(f.type.results).fill(false));
  const globals = new Array<boolean>(wasm.globals).fill(false);
  for (const [name, indices] of Object.entries(secrets.secretParams ?? {})) {
    const f = wasm.functions.find((g) => g.name === name);
    if (!f) throw new Error(`constant-time: no function ${name} for its secret parameters`);
    for (const i of indices) params[f.index][i] = true;
  }
  const bodies = wasm.functions.map((f) => (f.end > f.start ? decodeBody(wasm, f) : null));
  const findings = new Map<string, Finding>();
  const taints: Taints = { params, results, globals, secrets, findings, grew: true };
  while (taints.grew) {
    taints.grew = false;
    for (const f of wasm.functions) {
      const body = bodies[f.index];
      if (body) new Walk(wasm, f, body, taints).run();
    }
  }
  return [...findings.values()].sort((a, b) => a.offset - b.offset);
}

interface Taints {
  params: boolean[][];
  results: boolean[][];
  globals: boolean[];
  secrets: KernelSecrets;
  findings: Map<string, Finding>;
  grew: boolean;
}

function isPublicAddress(secrets: KernelSecrets, address: number): boolean {
  return (secrets.publicMemory ?? []).some((r) => address >= r.start && address < r.end);
}

/** One function body on taints: the stack machine of the specification's §4.4, structured control and all. */
class Walk {
  private readonly frames: Frame[] = [];

  constructor(
    private readonly wasm: WasmModule,
    private readonly f: WasmFunction,
    private readonly body: Body,
    private readonly t: Taints,
  ) {}

  run(): void {
    const locals = new Array<boolean>(this.f.locals).fill(false);
    this.t.params[this.f.index].forEach((secret, i) => {
      locals[i] = secret;
    });
    const frame: Frame = { kind: 'function', arity: this.f.type.results, carried: null };
    this.frames.push(frame);
    const end = this.sequence(0, this.body.code.length - 1, { locals, stack: [] });
    const out = join(end, frame.carried);
    for (const [i, v] of (out?.stack ?? []).entries()) this.taint(this.t.results[this.f.index], i, v.secret);
  }

  private taint(row: boolean[], i: number, secret: boolean): void {
    if (secret && !row[i]) {
      row[i] = true;
      this.t.grew = true;
    }
  }

  private check(at: Decoded, rule: Rule, value: Value): void {
    if (!value.secret) return;
    const key = `${at.offset}:${rule}`;
    if (!this.t.findings.has(key)) this.t.findings.set(key, { function: this.f.name, offset: at.offset, instruction: at.name, rule });
  }

  /** Whether the kernel declares this load's value public (KernelSecrets.publicLoads: a table of public values read at varying addresses). */
  private declaredPublic(at: Decoded): boolean {
    return (this.t.secrets.publicLoads ?? []).some((d) => d.function === this.f.name && d.instruction === at.name);
  }

  /** A branch to `depth` carries the top `arity` values and the locals to that frame. */
  private branch(depth: number, s: State): void {
    const target = this.frames[this.frames.length - 1 - depth];
    const carried = { locals: s.locals, stack: s.stack.slice(s.stack.length - target.arity) };
    target.carried = join(target.carried, carried);
  }

  /** Runs instructions [from, to) from state `s`: the state after them, or null where control cannot fall through. */
  private sequence(from: number, to: number, s: State | null): State | null {
    for (let i = from; i < to && s; i++) {
      const at = this.body.code[i];
      const op = at.op;
      if (op.kind === 'block' || op.kind === 'loop' || op.kind === 'if') {
        s = this.structured(i, at, op, s);
        i = this.body.end[i];
      } else s = this.step(at, op, s);
    }
    return s;
  }

  private structured(i: number, at: Decoded, op: Extract<Instruction, { kind: 'block' | 'loop' | 'if' }>, s: State): State | null {
    if (op.kind === 'if') this.check(at, 'branch', s.stack.pop() as Value);
    const outside = s.stack.slice(0, s.stack.length - op.type.params);
    const inside = (state: State): State => ({ locals: state.locals, stack: state.stack.slice(state.stack.length - op.type.params) });
    const end = this.body.end[i];
    const after = (result: State | null): State | null => result && { locals: result.locals, stack: [...outside, ...result.stack] };
    if (op.kind === 'loop') {
      // Around the loop until its start's state stops growing.
      let head = inside(s);
      for (;;) {
        const frame: Frame = { kind: 'loop', arity: op.type.params, carried: null };
        this.frames.push(frame);
        const out = this.sequence(i + 1, end, copy(head));
        this.frames.pop();
        const next = join(head, frame.carried) as State;
        if (same(next, head)) return after(out);
        head = next;
      }
    }
    const frame: Frame = { kind: op.kind, arity: op.type.results, carried: null };
    this.frames.push(frame);
    const elseAt = this.body.else[i];
    let out: State | null;
    if (op.kind === 'if') {
      const then = this.sequence(i + 1, elseAt ?? end, inside(copy(s)));
      const otherwise = elseAt !== undefined ? this.sequence(elseAt + 1, end, inside(copy(s))) : inside(copy(s));
      out = join(then, otherwise);
    } else out = this.sequence(i + 1, end, inside(s));
    this.frames.pop();
    return after(join(out, frame.carried));
  }

  private step(at: Decoded, op: Instruction, s: State): State | null {
    const { stack } = s;
    const pop = (): Value => {
      const v = stack.pop();
      if (!v) throw new Error(`constant-time: ${this.f.name}: stack underflow at ${at.offset}`);
      return v;
    };
    const popN = (n: number): Value[] => Array.from({ length: n }, pop).reverse();
    switch (op.kind) {
      case 'br':
        this.branch(op.depth, s);
        return null;
      case 'br_if':
        this.check(at, 'branch', pop());
        this.branch(op.depth, s);
        return s;
      case 'br_table':
        this.check(at, 'branch', pop());
        for (const depth of op.depths) this.branch(depth, s);
        return null;
      case 'return':
        this.branch(this.frames.length - 1, s);
        return null;
      case 'unreachable':
        return null;
      case 'else':
      case 'end':
      case 'nop':
        return s;
      case 'drop':
        pop();
        return s;
      case 'select': {
        this.check(at, 'select', pop());
        stack.push(any(popN(2)));
        return s;
      }
      case 'call': {
        const callee = this.wasm.functions[op.func];
        const args = popN(callee.type.params);
        for (const [i, v] of args.entries()) this.taint(this.t.params[callee.index], i, v.secret);
        // An imported function (none today) is taken to return a secret if given one.
        const imported = callee.end === callee.start;
        for (let i = 0; i < callee.type.results; i++) stack.push(this.t.results[callee.index][i] || (imported && any(args).secret) ? SECRET : PUBLIC);
        return s;
      }
      case 'call_indirect': {
        this.check(at, 'address', pop());
        popN(op.type.params);
        for (let i = 0; i < op.type.results; i++) stack.push(SECRET);
        return s;
      }
      case 'local.get':
        stack.push(s.locals[op.index] ? SECRET : PUBLIC);
        return s;
      case 'local.set':
      case 'local.tee': {
        const v = pop();
        // Flow-sensitive: a set replaces what the local held.
        s.locals[op.index] = v.secret;
        if (op.kind === 'local.tee') stack.push(v);
        return s;
      }
      case 'global.get':
        stack.push(this.t.globals[op.index] ? SECRET : PUBLIC);
        return s;
      case 'global.set':
        this.taint(this.t.globals, op.index, pop().secret);
        return s;
      case 'i32.const':
        stack.push({ secret: false, constant: op.value });
        return s;
      case 'load': {
        const vector = op.pops === 2 ? pop() : PUBLIC;
        const address = pop();
        this.check(at, 'address', address);
        const fixed = address.constant !== undefined && isPublicAddress(this.t.secrets, address.constant + op.offset);
        stack.push(fixed || this.declaredPublic(at) ? vector : SECRET);
        return s;
      }
      case 'store': {
        const value = pop();
        const address = pop();
        this.check(at, 'address', address);
        if (address.constant !== undefined && isPublicAddress(this.t.secrets, address.constant + op.offset)) this.check(at, 'public-memory', value);
        return s;
      }
      case 'bulk': {
        // memory.fill's second operand is the byte it writes, and may be secret; every other operand is an address or a length.
        const [destination, source, length] = popN(3);
        this.check(at, 'address', destination);
        if (at.name !== 'memory.fill') this.check(at, 'address', source);
        this.check(at, 'address', length);
        return s;
      }
      case 'pure': {
        const operands = popN(op.pops);
        if (op.variableTime) this.check(at, 'variable-time', any(operands));
        for (let i = 0; i < op.pushes; i++) stack.push(any(operands));
        return s;
      }
      default:
        throw new Error(`constant-time: ${this.f.name}: ${at.name} outside a block's walk`);
    }
  }
}
