/**
 * age's X25519 (src/age/x25519.ts): node:crypto, the platform's WebCrypto
 * and @noble/curves give RFC 7748's bytes and each other's, for public keys
 * and shared secrets, over random scalars and the edges (scalars with the
 * bits that clamping clears set, scalars beginning with a zero byte,
 * low-order points, which give all zeros).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { x25519 } from '@noble/curves/ed25519.js';
import { multiplyOn, nativeX25519, subtlePair } from '../internal.js';
import { assertBytes, hex, rand } from '../helpers.js';

const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
const BASE = Uint8Array.of(9, ...new Array<number>(31).fill(0));

/** WebCrypto with X25519, where the engine has it (Hermes has no WebCrypto; older browsers lack the algorithm). */
async function platform(): Promise<typeof subtle> {
  if (subtle === undefined) return undefined;
  try {
    await subtle.importKey('raw', BASE, { name: 'X25519' }, false, []);
    return subtle;
  } catch {
    return undefined;
  }
}

type Way = Parameters<typeof multiplyOn>[0];

/** Every way this engine has: @noble/curves always, WebCrypto and node:crypto where it has them (each named, so that a failure says which). */
const ways = async (): Promise<[string, Way][]> => {
  const found: [string, Way][] = [['@noble/curves', undefined]];
  const p = await platform();
  if (p !== undefined) found.push(['WebCrypto', p]);
  const native = nativeX25519();
  if (native !== undefined) found.push(['node:crypto', native]);
  return found;
};

/** Node itself (not Deno or Bun, which also have a process global). */
const host = globalThis as { Deno?: unknown; Bun?: unknown; process?: { versions?: { node?: string } } };
const NODE = host.Deno === undefined && host.Bun === undefined && host.process?.versions?.node !== undefined;

it('Node has each way: node:crypto and WebCrypto', { skip: NODE ? false : 'Node only' }, async () => {
  assert.deepEqual(
    (await ways()).map(([name]) => name),
    ['@noble/curves', 'WebCrypto', 'node:crypto'],
  );
});

// RFC 7748 §6.1.
const ALICE = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
const ALICE_PUBLIC = hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
const BOB = hex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb');
const BOB_PUBLIC = hex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
const SHARED = hex('4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742');

it("RFC 7748's Diffie-Hellman example, every way the engine has", async () => {
  for (const [name, way] of await ways()) {
    assertBytes(await multiplyOn(way, ALICE, BASE), ALICE_PUBLIC, `${name}: Alice's public key`);
    assertBytes(await multiplyOn(way, BOB, BASE), BOB_PUBLIC, `${name}: Bob's public key`);
    assertBytes(await multiplyOn(way, ALICE, BOB_PUBLIC), SHARED, `${name}: Alice's shared secret`);
    assertBytes(await multiplyOn(way, BOB, ALICE_PUBLIC), SHARED, `${name}: Bob's shared secret`);
  }
});

it("random and unclamped scalars and points: every way gives noble's bytes; the secret is left as it was", async () => {
  for (const [name, way] of await ways()) {
    for (let i = 0; i < 40; i++) {
      const secret = rand(32);
      if (i % 4 === 0) {
        // The bits clamping clears (RFC 7748 §5): set, so that both ways must clear them.
        secret[0]! |= 7;
        secret[31]! |= 0xc0;
      }
      const kept = secret.slice();
      const peer = x25519.getPublicKey(rand(32));
      assertBytes(await multiplyOn(way, secret, BASE), x25519.getPublicKey(kept), `${name}: public key ${i}`);
      assertBytes(await multiplyOn(way, secret, peer), x25519.getSharedSecret(kept, peer), `${name}: shared secret ${i}`);
      assertBytes(secret, kept, `${name}: the secret ${i} unchanged`);
    }
  }
});

it('scalars whose first byte is 0, or becomes 0 when clamped (WebKitGTK refuses to import them): every way gives noble’s bytes', async () => {
  for (const [name, way] of await ways()) {
    for (const first of [0, 1, 7, 8]) {
      const secret = rand(32);
      secret[0] = first;
      const peer = x25519.getPublicKey(rand(32));
      assertBytes(await multiplyOn(way, secret, BASE), x25519.getPublicKey(secret), `${name}: public key, first byte ${first}`);
      assertBytes(await multiplyOn(way, secret, peer), x25519.getSharedSecret(secret, peer), `${name}: shared secret, first byte ${first}`);
    }
  }
});

it('points with the top bit set (RFC 7748 §5: masked) give the bytes of the point without it, every way', async () => {
  for (const [name, way] of await ways()) {
    for (let i = 0; i < 4; i++) {
      const secret = rand(32);
      const peer = x25519.getPublicKey(rand(32));
      const high = peer.slice();
      high[31]! |= 0x80;
      assertBytes(await multiplyOn(way, secret, high), x25519.getSharedSecret(secret, peer), `${name}: point ${i} with its top bit set`);
    }
  }
});

it('low-order points give all zeros (the caller refuses them), every way', async () => {
  const lowOrder = [new Uint8Array(32), Uint8Array.of(1, ...new Array<number>(31).fill(0))];
  for (const [name, way] of await ways()) {
    for (const [i, u] of lowOrder.entries()) assert.deepEqual([...(await multiplyOn(way, rand(32), u))], new Array(32).fill(0), `${name}: point ${i}`);
  }
});

it("node:crypto's ephemeral pairs (a stanza's share): the public key is the private key's, a shared secret agrees with noble's", async (t) => {
  const native = nativeX25519();
  const pair = native?.generate();
  if (native === undefined || pair === undefined) {
    assert.ok(!NODE, 'Node makes X25519 pairs');
    return t.skip('this engine makes no X25519 pair on node:crypto: a stanza takes its secret from random bytes, through the multipliers tested above');
  }
  const shares = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const next: { privateKey: object; publicKey: Uint8Array } = i === 0 ? pair : native.generate()!;
    const { privateKey, publicKey } = next;
    assert.equal(publicKey.length, 32);
    shares.add(publicKey.join());
    const other = rand(32);
    assertBytes(native.multiply(privateKey, x25519.scalarMult(other, BASE)), x25519.scalarMult(other, publicKey), `pair ${i}`);
  }
  assert.equal(shares.size, 8, 'a pair repeated');
});

it("WebCrypto's ephemeral pairs (a stanza's share in a browser): the public key is the private key's, a shared secret agrees with noble's", async (t) => {
  const p = await platform();
  if (p === undefined)
    return t.skip('this engine has no X25519 on WebCrypto: a stanza takes its secret from random bytes, through the multipliers tested above');
  const shares = new Set<string>();
  for (let i = 0; i < 8; i++) {
    // Up to three tries: WebKitGTK's generateKey has failed under load (subtlePair then asks again next time).
    let pair = await subtlePair(p);
    for (let tries = 1; pair === undefined && tries < 3; tries++) pair = await subtlePair(p);
    assert.ok(pair !== undefined, 'WebCrypto imports X25519 keys but made no pair in three tries');
    assert.equal(pair.publicKey.length, 32);
    shares.add(pair.publicKey.join());
    const other = rand(32);
    assertBytes(await pair.multiply(x25519.scalarMult(other, BASE)), x25519.scalarMult(other, pair.publicKey), `pair ${i}`);
  }
  assert.equal(shares.size, 8, 'a pair repeated');
});

it('a generateKey that fails but for want of X25519 (OperationError) leaves the next stanza its WebCrypto pair', async (t) => {
  const p = await platform();
  if (p === undefined) return t.skip('this engine has no X25519 on WebCrypto: subtlePair is never asked');
  const busy: Parameters<typeof subtlePair>[0] = {
    generateKey: (() => Promise.reject(new DOMException('the platform is busy', 'OperationError'))) as typeof p.generateKey,
    exportKey: p.exportKey.bind(p),
    importKey: p.importKey.bind(p),
    deriveBits: p.deriveBits.bind(p),
  };
  assert.equal(await subtlePair(busy), undefined, 'no pair where generateKey failed');
  let pair = await subtlePair(p);
  for (let tries = 1; pair === undefined && tries < 3; tries++) pair = await subtlePair(p);
  assert.ok(pair !== undefined, 'a failure that may pass stopped WebCrypto pairs for good');
});
