/**
 * fourfold/sodium's crypto_* and randombytes_* calls as random programs
 * (programs.ts) need them, read from the module's own declarations: the
 * TypeScript checker over src/sodium/index.ts gives each parameter's name
 * and type, and a byte array's length is its family's constant by
 * libsodium's naming (crypto_box_easy's publicKey: crypto_box_PUBLICKEYBYTES).
 * A call added to the module is in the programs the day it lands.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One parameter: its name (libsodium.js's), its kind, and the numbers that bound it. */
export interface CallInput {
  readonly name: string;
  /**
   * buf (`length` bytes), buf_optional, unsized_buf (bytes or a string),
   * unsized_buf_optional, minsized_buf (`length` bytes or more), uint,
   * ranged_uint (`min` to `max`), u64, string (`length` characters),
   * unsized_string, state (of `family`).
   */
  readonly type: string;
  readonly length?: number;
  readonly min?: number;
  readonly max?: number;
  readonly family?: string;
}

export interface CallDescription {
  readonly name: string;
  readonly inputs: readonly CallInput[];
  /** The family of the state it returns (an _init), whole or as a result's `state`. */
  readonly makesState?: string;
  /** Whether libsodium.js frees the state it takes (a _final): it is not used again. */
  readonly freesState: boolean;
  /** The name its single byte result goes by as another call's input (beforenm's sharedKey). */
  readonly output?: string;
}

const ENTRY = fileURLToPath(new URL('../../src/sodium/index.ts', import.meta.url));

/** A byte array's constant by its parameter's name: the suffixes libsodium names its lengths with, in the order tried. */
const LENGTHS: [RegExp, string[]][] = [
  [/^(key|k)$/, ['KEYBYTES']],
  [/^secret_nonce$/, ['NSECBYTES']],
  [/nonce$/, ['NPUBBYTES', 'NONCEBYTES']],
  [/^(publicKey|clientPublicKey|serverPublicKey|edPk|pk)$/, ['PUBLICKEYBYTES', 'BYTES']],
  // crypto_scalarmult's and the HChaCha20/HSalsa20 cores' privateKey: a scalar, a key.
  [/^(privateKey|secretKey|clientSecretKey|serverSecretKey|edSk|sk)$/, ['SECRETKEYBYTES', 'SCALARBYTES', 'KEYBYTES']],
  [/^seed$/, ['SEEDBYTES']],
  [/^mac$/, ['MACBYTES', 'ABYTES', 'BYTES']],
  [/^(tag|signature|hash)$/, ['BYTES']],
  [/^header$/, ['HEADERBYTES']],
  [/^sharedKey$/, ['BEFORENMBYTES']],
  [/^(salt|id)$/, ['SALTBYTES']],
  [/^(personal|ctx)$/, ['PERSONALBYTES']],
  [/^ciphertext$/, ['CIPHERTEXTBYTES']],
  [/^constant$/, ['CONSTBYTES']],
  [/^input(16)?$/, ['INPUTBYTES']],
  [/^(scalar|s|x|y|n)$/, ['SCALARBYTES']],
  [/^(p|q|point|repr)$/, ['BYTES']],
  // from_uniform's r is _UNIFORMBYTES, from_hash's _HASHBYTES (read as the call's last word).
  [/^r$/, ['UNIFORMBYTES']],
  [/^prk$/, ['KEYBYTES']],
];

/**
 * Inputs of any length though a constant matches their name (a key taken as bytes or a string: an HMAC's,
 * generichash's; scrypt _ll's salt), or whose length no constant names (a KEM's encapsulation seed).
 */
const anyLength = (call: string, name: string, bytesOnly: boolean) =>
  (name === 'key' && !bytesOnly) || (name === 'salt' && call.endsWith('_ll')) || (name === 'seed' && call.endsWith('_enc_deterministic'));

/** The constant a call's family has for `suffixes`: the call's name less words from its end until one exists. */
function familyConstant(call: string, suffixes: string[], constants: Record<string, unknown>): number | undefined {
  const words = call.split('_');
  for (let n = words.length; n >= 2; n--) {
    for (const suffix of suffixes) {
      const value = constants[`${words.slice(0, n).join('_')}_${suffix}`];
      if (typeof value === 'number') return value;
    }
  }
  return undefined;
}

/** A state's kind: its family, the call's name less the step (init, update, final, push, pull, squeeze, ...). */
export function familyOf(call: string): string {
  return call.replace(/_(init(_push|_pull|_with_domain)?|update|final(_create|_verify)?|push|pull|rekey|squeeze)$/, '');
}

function inputOf(call: string, name: string, type: ts.Type, optional: boolean, checker: ts.TypeChecker, constants: Record<string, unknown>): CallInput {
  const text = checker.typeToString(type);
  const nullable = optional || /\bnull\b/.test(text);
  if (/\bState\b|\bHashState\b|\bSha3State\b|\bOnetimeauthState\b|\bHkdfState\b/.test(text)) return { name, type: 'state', family: familyOf(call) };
  if (/bigint/.test(text)) return { name, type: 'u64' };
  if (text === 'number') {
    // A length with bounds of a few bytes (generichash, kdf): libsodium's _BYTES_MIN to _BYTES_MAX.
    const lo = /len|length/i.test(name) ? familyConstant(call, ['BYTES_MIN'], constants) : undefined;
    const hi = /len|length/i.test(name) ? familyConstant(call, ['BYTES_MAX'], constants) : undefined;
    return lo !== undefined && hi !== undefined && lo <= hi && hi <= 1024 ? { name, type: 'ranged_uint', min: lo, max: hi } : { name, type: 'uint' };
  }
  if (text === 'string') return { name, type: name === 'ctx' ? 'string' : 'unsized_string', length: familyConstant(call, ['CONTEXTBYTES'], constants) };
  if (!anyLength(call, name, /^Uint8Array/.test(text))) {
    const suffixes = /_from_hash$/.test(call) && name === 'r' ? ['HASHBYTES'] : LENGTHS.find(([pattern]) => pattern.test(name))?.[1];
    const length = suffixes === undefined ? undefined : familyConstant(call, suffixes, constants);
    if (length !== undefined) return { name, type: nullable ? 'buf_optional' : 'buf', length };
  }
  return { name, type: nullable ? 'unsized_buf_optional' : 'unsized_buf' };
}

/** The calls programs make: libsodium's, and libsodium.js's helpers on bytes and their encodings. */
export const PROGRAM_CALL = /^(crypto_|randombytes_|(from|to)_(hex|base64|string)$|memcmp$|compare$|is_zero$|increment$|add$|pad$|unpad$|memzero$)/;

/** A group element of Ed25519 or Ristretto255, as a call returns one. */
const POINT_RESULT = /^crypto_(core_(ed25519|ristretto255)_(random|from_hash|from_uniform|add|sub)|scalarmult_(ed25519|ristretto255)(_base)?(_noclamp)?)$/;

/** The input name a call's bytes result goes by: beforenm's sharedKey, a keygen's key, a point's p. */
function outputName(call: string): string | undefined {
  if (call.endsWith('_beforenm')) return 'sharedKey';
  if (call.endsWith('_keygen')) return 'key';
  return POINT_RESULT.test(call) ? 'p' : undefined;
}

/** Every crypto_* and randombytes_* function, and the helpers, fourfold/sodium exports, with its parameters (less the output format). */
export function describeCalls(constants: Record<string, unknown>): CallDescription[] {
  const program = ts.createProgram([ENTRY], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
  const calls: CallDescription[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const name = symbol.name;
    const signature = checker.getTypeOfSymbol(symbol).getCallSignatures()[0];
    if (signature === undefined || !PROGRAM_CALL.test(name)) continue;
    const inputs = signature.getParameters().flatMap((p) => {
      if (p.name === 'outputFormat') return [];
      const declaration = p.valueDeclaration as ts.ParameterDeclaration | undefined;
      const optional = declaration?.questionToken !== undefined || declaration?.initializer !== undefined;
      return [inputOf(name, p.name.replace(/^_/, ''), checker.getTypeOfSymbol(p), optional, checker, constants)];
    });
    const returned = checker.typeToString(signature.getReturnType());
    const makesState = /^(State|HashState|Sha3State|OnetimeauthState|HkdfState)$/.test(returned) || /SecretstreamStart/.test(returned);
    calls.push({
      name,
      inputs,
      makesState: makesState ? familyOf(name) : undefined,
      freesState: inputs.some((i) => i.type === 'state') && /_final(_create|_verify)?$/.test(name),
      output: outputName(name),
    });
  }
  return calls;
}
