/**
 * The one-shot calls on a checked sender or receiver: an age file of
 * bytes held whole, and the plaintext of one. api.ts's encrypt and
 * decrypt check their arguments and come here; so does the typage API's
 * Encrypter and Decrypter (src/typage), whose pages then load neither the
 * streams' coders (codec.ts) nor the armor's code (armor.ts) until a file
 * is armored: a module apart from api.ts, whose stream calls import the
 * coders at once.
 */
import { isArmored } from './armor-begin.js';
import type { AgeRunners } from './codec.js';
import { AgeFormatError } from './errors.js';
import { forgetKeys, openHeader, type Receiver, type Sealed, sealHeader, type Sender } from './file-key.js';
import { type Header, HeaderReader } from './header.js';
import { chunkFailure, NONCE_BYTES, payloadKey, plainLength, sealedLength } from './payload.js';
import type { Runner } from './pipeline.js';
import { engineReady, lazyJsEngine as engine } from '../chacha/tiers-on-demand.js';
import { type Bytes, joined, zeroize } from '../runtime/bytes.js';

/** The armor's code (armor.ts) and the stream decoder's (codec.ts, for an armored file read a piece at a time): imported when a file is armored or armor is asked for. */
// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const armorCode = () => import(('./armor.js'));
// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const codecCode = () => import(('./codec.js'));

/** The age file of `plain` (read at once) under a sealed header. */
async function payloadAfter(runners: AgeRunners, { header, fileKey }: Sealed, plain: Uint8Array, armored: boolean): Promise<Bytes> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const key = payloadKey(fileKey, nonce);
  zeroize(fileKey);
  const at = header.length + NONCE_BYTES;
  const out = new Uint8Array(at + sealedLength(plain.length));
  out.set(header);
  out.set(nonce, header.length);
  const runner = runners.runner();
  try {
    await runner.seal(key, { counter: 0, final: true }, plain, out.subarray(at));
  } finally {
    zeroize(key);
    runner.done();
  }
  return armored ? (new (await armorCode()).ArmorEncoder().end(out) as Bytes) : out;
}

/** The age file of `input` for a checked sender (encryptWith's, or the typage API's Encrypter), whose keys it wipes. */
export async function encryptFor(runners: AgeRunners, sender: Sender, input: Uint8Array, armored: boolean): Promise<Bytes> {
  try {
    await engineReady();
    const sealed = sealHeader(sender, runners.scrypt);
    if (sender.passphrase === undefined) return await payloadAfter(runners, await sealed, input, armored);
    // The plaintext is read now: the caller may change its array while scrypt runs (seconds).
    const copy = input.slice();
    try {
      return await payloadAfter(runners, await sealed, copy, armored);
    } finally {
      zeroize(copy);
    }
  } finally {
    forgetKeys(sender);
  }
}

/** The plaintext of the payload `sealed`, or the AuthenticationError of its first chunk that does not verify. */
async function openAll(runner: Runner, key: Uint8Array, sealed: Uint8Array): Promise<Bytes> {
  if (sealed.length === 0) throw chunkFailure(engine(), key, 0, true, sealed);
  const out = new Uint8Array(plainLength(sealed.length));
  const opened = await runner.open(key, { counter: 0, final: true }, sealed, out);
  if (opened instanceof Uint8Array) return out;
  zeroize(out);
  throw opened.error;
}

/** The file's binary form: de-armored (into an array of ours) when it is armored, else the caller's bytes. */
async function binaryOf(file: Uint8Array): Promise<Uint8Array> {
  if (!isArmored(file, true)) return file;
  const decoder = new (await armorCode()).ArmorDecoder();
  return joined([decoder.push(file), decoder.end()]);
}

/** The header at the start of a whole file, or the AgeFormatError of one that ends inside it. */
function headerOf(binary: Uint8Array): Header {
  const reader = new HeaderReader();
  const read = reader.push(binary);
  if (read === undefined) throw reader.ended();
  return read.header;
}

/** The armored text a one-shot decryption de-armors at a time: what the age command reads at once. */
const ARMOR_PIECE = 4 << 20;

/**
 * An armored file's plaintext, de-armored and opened a piece at a time
 * (codec.ts Decryptor, as a stream's would be) into a result sized from
 * the armor's layout (`binaryLength`, armor.ts dearmoredLength): the call
 * holds the text, the result and a few pieces, not the de-armored file.
 * Nothing is released unless every chunk verified.
 */
async function decryptArmored(runners: AgeRunners, text: Uint8Array, receiver: Receiver, binaryLength: number): Promise<Bytes> {
  let out: Bytes | undefined;
  let filled = 0;
  const decryptor = new (await codecCode()).Decryptor(receiver, runners, (plain: Uint8Array) => {
    out ??= new Uint8Array(plainLength(binaryLength - decryptor.payloadStart!));
    out.set(plain, filled);
    filled += plain.length;
    // The piece was ours (the opener's new array): no copy of the plaintext is left behind.
    zeroize(plain);
  });
  try {
    for (let at = 0; at < text.length; at += ARMOR_PIECE) await decryptor.write(text.subarray(at, at + ARMOR_PIECE));
    await decryptor.end();
    out ??= new Uint8Array(0);
    if (filled !== out.length) throw new Error(`fourfold: the armor decoded to other than the ${binaryLength} bytes its layout has`);
    return out;
  } catch (e) {
    if (out !== undefined) zeroize(out);
    throw e;
  } finally {
    decryptor.forget();
  }
}

/** The plaintext of the whole file `input` for a checked receiver (decryptWith's, or the typage API's Decrypter), whose keys it wipes. */
export async function decryptFor(runners: AgeRunners, input: Uint8Array, receiver: Receiver): Promise<Bytes> {
  try {
    await engineReady();
    // A passphrase's scrypt runs for seconds (an API's own unwrap may run one, or a caller's identity), the caller free to change its array meanwhile: that file is de-armored whole before.
    const slow = receiver.passphrase !== undefined || (receiver.unwrap !== undefined && receiver.quickUnwrap !== true);
    const binaryLength = !slow && isArmored(input, true) ? (await armorCode()).dearmoredLength(input) : undefined;
    if (binaryLength !== undefined) return await decryptArmored(runners, input, receiver, binaryLength);
    let binary = await binaryOf(input);
    const header = headerOf(binary);
    const opened = openHeader(header, receiver, runners.scrypt);
    // The file is read now: the caller may change its array while scrypt runs (seconds).
    if (slow && binary === input) binary = input.slice();
    const fileKey = await opened;
    if (binary.length < header.length + NONCE_BYTES) throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
    const key = payloadKey(fileKey, binary.subarray(header.length, header.length + NONCE_BYTES));
    zeroize(fileKey);
    const runner = runners.runner();
    try {
      return await openAll(runner, key, binary.subarray(header.length + NONCE_BYTES));
    } finally {
      zeroize(key);
      runner.done();
    }
  } finally {
    forgetKeys(receiver);
  }
}
