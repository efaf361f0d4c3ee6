/**
 * The ChaCha family: chacha20 (RFC 8439), xchacha20, and their AEADs (RFC 8439,
 * draft-irtf-cfrg-xchacha) sealing and opening; the conventions are table.ts's.
 * A node:crypto call creates its Cipher and finalizes it.
 */
import { type Apis, NODE_CONTRACT, NODE_JOINED, nodeHasCipher } from '../libraries.js';
import { aead, type Cipher, cipherOps, type Inputs, keyedOp, ours, pooled, sodiumXor, TAG, withOutput } from './table.js';
import type { OpDefinition, OpEntry } from './types.js';

type SodiumStream = (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
type SodiumSeal = (message: Uint8Array, ad: null, nsec: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
type SodiumOpen = (nsec: null, sealed: Uint8Array, ad: null, nonce: Uint8Array, key: Uint8Array) => Uint8Array;

/** A built-in module of the engine running the bench (node:crypto's engines have process.getBuiltinModule). */
const builtin = <T>(id: string): T => (globalThis as unknown as { process: { getBuiltinModule(id: string): T } }).process.getBuiltinModule(id);

/** node:crypto's 'chacha20': one 16-byte IV, the 32-bit little-endian block counter (0 here), then the nonce. */
function nodeChacha20(node: NonNullable<Apis['node']>): OpEntry<Inputs> {
  return {
    library: 'node',
    bind: ({ key, nonce, message }) => {
      const iv = new Uint8Array(16);
      iv.set(nonce, 4);
      return () => {
        const cipher = node.createCipheriv('chacha20', key, iv);
        const out = cipher.update(message);
        cipher.final(); // always empty for a stream cipher, but part of using the API
        return out;
      };
    },
  };
}

/** ArrayBuffer.prototype.transfer (ES2024: not in Node 20), as src/runtime/native.ts captures it. */
const transfer = (ArrayBuffer.prototype as { transfer?: (this: ArrayBuffer, length: number) => ArrayBuffer }).transfer;

/**
 * The least code keeping fourfold's contract on node:crypto, the native
 * tier's floor: the key and nonce copied when the AEAD is made (each call
 * makes one), node:crypto handed copies in arrays of their own that are
 * wiped after the call, the result a plain Uint8Array of its own, and
 * encrypt's ciphertext and tag one array. No argument checks, no tiers:
 * where fourfold runs at this column's speed, what it costs over the bare
 * call is the contract's, not its code's.
 */
function contractAead(node: NonNullable<Apis['node']>): { encrypt: OpEntry<Inputs>; decrypt: OpEntry<Inputs> } {
  const handedKey = new Uint8Array(new ArrayBuffer(32));
  const handedNonce = new Uint8Array(new ArrayBuffer(12));
  const handedTag = new Uint8Array(new ArrayBuffer(TAG));
  const handed = (inputs: Inputs, call: (inputs: Inputs) => Uint8Array) => {
    handedKey.set(inputs.key.slice());
    handedNonce.set(inputs.nonce.slice());
    try {
      return call(inputs);
    } finally {
      handedKey.fill(0);
    }
  };
  const seal = ({ message }: Inputs) => {
    const c = node.createCipheriv('chacha20-poly1305', handedKey, handedNonce, { authTagLength: TAG });
    const body = c.update(message);
    c.final();
    // The ciphertext's memory grown for the tag where it is a whole buffer of its own, else copied (n first: transfer() detaches body).
    const n = body.length;
    const whole = transfer !== undefined && body.byteOffset === 0 && body.buffer.byteLength === n;
    const out = whole ? new Uint8Array(transfer.call(body.buffer as ArrayBuffer, n + TAG)) : new Uint8Array(n + TAG);
    if (!whole) out.set(body);
    out.set(c.getAuthTag(), n);
    return out;
  };
  const open = ({ sealed }: Inputs) => {
    const n = sealed!.length - TAG;
    handedTag.set(sealed!.subarray(n));
    const d = node.createDecipheriv('chacha20-poly1305', handedKey, handedNonce, { authTagLength: TAG });
    d.setAuthTag(handedTag);
    const plaintext = d.update(sealed!.subarray(0, n));
    d.final();
    return new Uint8Array(plaintext.buffer, plaintext.byteOffset, plaintext.length);
  };
  return {
    encrypt: { library: NODE_CONTRACT, bind: (inputs) => () => handed(inputs, seal) },
    decrypt: { library: NODE_CONTRACT, bind: (inputs) => () => handed(inputs, open) },
  };
}

/** node:crypto offers the IETF AEAD only, and keeps its tag apart from the ciphertext. */
function nodeAead(node: NonNullable<Apis['node']>): { encrypt: OpEntry<Inputs>[]; decrypt: OpEntry<Inputs>[] } {
  const { Buffer } = builtin<{ Buffer: { concat(list: Uint8Array[]): Uint8Array } }>('node:buffer');
  const cipher = (key: Uint8Array, nonce: Uint8Array) => node.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
  // What fourfold's encrypt returns, one array, made the way node:crypto's users make it.
  const joined = ({ key, nonce, message }: Inputs) => {
    const c = cipher(key, nonce);
    return Buffer.concat([c.update(message), c.final(), c.getAuthTag()]);
  };
  const contract = contractAead(node);
  return {
    encrypt: [
      {
        library: 'node',
        // The timed call fetches the tag but does not join it to the ciphertext: a copy node's users need not make.
        bind: (i) => () => {
          const c = cipher(i.key, i.nonce);
          const ciphertext = c.update(i.message);
          c.final();
          c.getAuthTag();
          return ciphertext;
        },
        checkedOutput: joined,
      },
      { library: NODE_JOINED, bind: (i) => () => joined(i) },
      contract.encrypt,
    ],
    decrypt: [
      {
        library: 'node',
        bind: ({ key, nonce, sealed }) => {
          const body = sealed!.subarray(0, sealed!.length - TAG);
          const tag = sealed!.subarray(sealed!.length - TAG);
          return () => {
            const decipher = node.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
            decipher.setAuthTag(tag);
            const plaintext = decipher.update(body);
            decipher.final(); // throws if the tag does not verify
            return plaintext;
          };
        },
      },
      contract.decrypt,
    ],
  };
}

/** libsodium's AEAD as a Cipher. */
const sodiumAead = (seal: SodiumSeal | undefined, open: SodiumOpen | undefined): Cipher | undefined =>
  seal && open && { encrypt: (key, nonce, data) => seal(data, null, null, nonce, key), decrypt: (key, nonce, data) => open(null, data, null, nonce, key) };

export function chachaOps({ fourfold, noble, sodium, node }: Apis): OpDefinition<unknown>[] {
  const sumo = (sodium ?? {}) as unknown as Record<string, (SodiumStream & SodiumSeal & SodiumOpen) | undefined>;
  const nodeHas = (cipher: string) => node !== undefined && nodeHasCipher(node, cipher);
  const { chacha, parallel } = fourfold ?? {};
  const streams = [
    ['chacha20', 12, chacha?.chacha20, parallel?.chacha20, noble.chacha.chacha20, sumo.crypto_stream_chacha20_ietf_xor],
    ['xchacha20', 24, chacha?.xchacha20, parallel?.xchacha20, noble.chacha.xchacha20, sumo.crypto_stream_xchacha20_xor],
  ] as const;
  const aeads = [
    ['chacha20poly1305', 12, chacha?.chacha20poly1305, parallel?.chacha20poly1305, noble.chacha.chacha20poly1305],
    ['xchacha20poly1305', 24, chacha?.xchacha20poly1305, parallel?.xchacha20poly1305, noble.chacha.xchacha20poly1305],
  ] as const;
  return [
    ...streams.map(([op, nonceLength, ourCall, poolCall, nobleCall, sodiumCall]) =>
      keyedOp(
        op,
        nonceLength,
        [...ours(ourCall, { native: true }), ...pooled(poolCall), ...withOutput('noble', nobleCall), sodiumCall && ['sodium', sodiumXor(sodiumCall)]],
        {
          // node:crypto has ChaCha20 (through OpenSSL) but no XChaCha20.
          entries: op === 'chacha20' && nodeHas('chacha20') ? [nodeChacha20(node!)] : [],
        },
      ),
    ),
    ...aeads.flatMap(([name, nonceLength, ourCall, poolCall, nobleCall]) => {
      const libsodium = sodiumAead(sumo[`crypto_aead_${name}_ietf_encrypt`], sumo[`crypto_aead_${name}_ietf_decrypt`]);
      const nobleCipher = aead(nobleCall);
      // libsodium seals the decrypt inputs: it is trusted (@noble/ciphers where libsodium cannot load).
      const columns = [
        ...ours(ourCall && aead(ourCall), { native: true }),
        ...pooled(poolCall && aead(poolCall)),
        ...withOutput('noble', nobleCipher),
        libsodium && (['sodium', libsodium] as const),
      ];
      return cipherOps(
        name,
        nonceLength,
        libsodium ?? nobleCipher,
        columns,
        name === 'chacha20poly1305' && nodeHas('chacha20-poly1305') ? nodeAead(node!) : {},
      );
    }),
  ];
}
