/**
 * The age test kit (C2SP/CCTV age/testdata, https://age-encryption.org/testkit):
 * every vector (X25519, scrypt and post-quantum hybrid), decrypted whole, through
 * decryptStream and through fourfold/parallel's age, on both tiers. Each
 * must end as the kit expects: success with the payload's SHA-256, or the
 * failure it names (a header or armor failure: AgeFormatError; no match:
 * NoIdentityMatchError; an HMAC or payload failure: AuthenticationError).
 * Where a payload fails part-way, the plaintext the stream released before
 * the error must be exactly the kit's (its hash), and a one-shot call
 * releases none.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import { ageOffsets, EMULATED, forEachTier, loadJson, NO_JIT, NO_STREAMS, toHex, writesNear } from '../helpers.js';

interface Vector {
  name: string;
  fields: Record<string, string[]>;
  file: string;
}

const KIT = loadJson<{ vectors: Vector[] }>('vectors/age-testkit.json').vectors;
/** The kit's default X25519 identity, for the vectors that name none (they fail before one is used). */
const ANY_IDENTITY = 'AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0';

const zlib = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:zlib') as
  | typeof import('node:zlib')
  | undefined;
const CAN_INFLATE = zlib !== undefined || typeof DecompressionStream === 'function';

/** The vector's age file: base64, inflated where the kit compressed it (zlib). */
async function fileOf(v: Vector): Promise<Uint8Array> {
  const bytes = Uint8Array.from(base64.decode(v.file));
  if (v.fields.compressed?.[0] !== 'zlib') return bytes;
  if (zlib !== undefined) return new Uint8Array(zlib.inflateSync(bytes));
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer());
}

/** What a decryption's error is, in the kit's words. */
function kind(e: unknown): string {
  if (e instanceof age.NoIdentityMatchError) return 'no match';
  if (e instanceof age.AgeFormatError) return e.message.startsWith('invalid armor') ? 'armor failure' : 'header failure';
  if (e instanceof AuthenticationError) return e.message.includes('MAC') ? 'HMAC failure' : 'payload failure';
  throw e;
}

/** The `from`s to try, as the kit lists identities and passphrases (any one that opens the file will do). */
function froms(v: Vector): age.AgeFrom[] {
  if (v.fields.identity !== undefined) return [{ identities: v.fields.identity }];
  if (v.fields.passphrase !== undefined) return v.fields.passphrase.map((passphrase) => ({ passphrase, maxWorkFactor: 22 }));
  return [{ identities: [ANY_IDENTITY] }];
}

/** The outcome of `decrypt` over the vector's froms: 'success' or the kit's failure, and what was released. */
async function outcome(v: Vector, decrypt: (from: age.AgeFrom) => Promise<Uint8Array>): Promise<{ result: string; released: Uint8Array }> {
  let last: { result: string; released: Uint8Array } = { result: 'no attempt', released: new Uint8Array(0) };
  for (const from of froms(v)) {
    try {
      return { result: 'success', released: await decrypt(from) };
    } catch (e) {
      last = { result: kind(e), released: (e as { released?: Uint8Array }).released ?? new Uint8Array(0) };
      if (last.result !== 'no match') return last;
    }
  }
  return last;
}

/** decryptStream over `file` written in pieces of `piece` bytes (or of these sizes); on an error, the error with what was released before it. */
async function throughStream(stream: TransformStream<Uint8Array, Uint8Array>, file: Uint8Array, piece: number | number[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  const reading = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  })();
  const writer = stream.writable.getWriter();
  const released = () => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  try {
    const sizes = typeof piece === 'number' ? Array.from({ length: Math.ceil(file.length / piece) }, () => piece) : piece;
    let at = 0;
    for (const n of sizes) await writer.write(file.slice(at, (at += n)));
    await writer.close();
    await reading;
  } catch (e) {
    await reading.catch(() => {});
    if (typeof e === 'object' && e !== null) Object.assign(e, { released: released() });
    throw e;
  }
  return released();
}

it('the kit is here: 143 vectors, 19 of them for the post-quantum hybrid type', () => {
  assert.equal(KIT.length, 143);
  assert.equal(KIT.filter((v) => (v.fields.identity ?? []).some((id) => id.startsWith('AGE-SECRET-KEY-PQ-'))).length, 19);
});

forEachTier('the age test kit', () => {
  const check = async (how: string, decrypt: (v: Vector, file: Uint8Array, from: age.AgeFrom) => Promise<Uint8Array>, released: boolean) => {
    const wrong: string[] = [];
    for (const v of KIT) {
      if (v.fields.compressed !== undefined && !CAN_INFLATE) continue;
      const file = await fileOf(v);
      const expect = v.fields.expect![0]!;
      const got = await outcome(v, (from) => decrypt(v, file, from));
      const wantReleased = expect === 'success' || (released && expect === 'payload failure');
      const hash = toHex(sha256(got.released));
      if (got.result !== expect) wrong.push(`${v.name}: expected ${expect}, got ${got.result}`);
      else if (wantReleased && hash !== v.fields.payload![0]) wrong.push(`${v.name}: released plaintext hashes to ${hash}, not ${v.fields.payload![0]}`);
      else if (!wantReleased && got.released.length > 0) wrong.push(`${v.name}: ${got.released.length} bytes released with a ${expect}`);
    }
    assert.deepEqual(wrong, [], how);
  };

  it('decrypt (one-shot): each vector ends as the kit says, releasing nothing when it fails', async () => {
    await check('decrypt', (_v, file, from) => age.decrypt(file, from), false);
  });

  it('decryptStream, the file written in pieces of 1, 4096 and 70000 bytes: the plaintext before a payload failure is released, and only it', {
    skip: NO_STREAMS || NO_JIT || EMULATED,
  }, async () => {
    for (const piece of [70_000, 4096, 1]) {
      await check(
        `decryptStream in pieces of ${piece}`,
        // Byte by byte across the header's end, the nonce and each chunk's end (a KiB either side), and the
        // file's first and last KiB; 4096 bytes at a time between, where single bytes would cross no boundary.
        (_v, file, from) => throughStream(age.decryptStream(from), file, piece === 1 ? writesNear(file.length, ageOffsets(file)) : piece),
        true,
      );
    }
  });

  it("fourfold/parallel's age: decrypt and decryptStream", { skip: NO_JIT || EMULATED }, async () => {
    await check('parallel decrypt', (_v, file, from) => parallelAge.decrypt(file, from), false);
    if (!NO_STREAMS) await check('parallel decryptStream', (_v, file, from) => throughStream(parallelAge.decryptStream(from), file, 65_552 * 3 + 7), true);
  });
});
