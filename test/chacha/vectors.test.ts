/**
 * Known-answer tests: RFC 8439 (§2 and Appendix A), draft-irtf-cfrg-xchacha-03
 * and every Wycheproof ChaCha20-Poly1305 / XChaCha20-Poly1305 case.
 * The transcribed vectors are checked against @noble/ciphers and node:crypto
 * too, so a transcription slip cannot masquerade as an implementation bug.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { chacha20, xchacha20, hchacha20, chacha20poly1305, xchacha20poly1305 } from 'fourfold/chacha';
import { poly1305 } from 'fourfold/poly1305';
import { assertBytes, concat, forEachTier, hex, loadJson, loadSodium, NO_SODIUM } from '../helpers.js';
import { noble, noblePoly1305, nodeAeadEncrypt, nodeChacha20, nobleHchacha, sodiumAead } from './peers.js';

interface Rfc {
  chacha20Block: { name: string; key: string; nonce: string; counter: number; keystream: string }[];
  chacha20Encrypt: { name: string; key: string; nonce: string; counter: number; plaintext: string; ciphertext: string; keystream?: string }[];
  poly1305: { name: string; key: string; message: string; tag: string }[];
  poly1305KeyGen: { name: string; key: string; nonce: string; otk: string }[];
  aead: { name: string; key: string; nonce: string; aad: string; plaintext: string; ciphertext: string; tag: string }[];
}
interface XChaCha {
  hchacha20: { name: string; key: string; nonce: string; subkey: string }[];
  aead: { name: string; key: string; nonce: string; aad: string; plaintext: string; poly1305Key: string; ciphertext: string; tag: string }[];
  xchacha20: { name: string; key: string; nonce: string; counter: number; plaintext: string; keystream: string; ciphertext: string }[];
}
interface WycheproofTest {
  tcId: number;
  comment: string;
  flags: string[];
  key: string;
  iv: string;
  aad: string;
  msg: string;
  ct: string;
  tag: string;
  result: 'valid' | 'invalid' | 'acceptable';
}
interface Wycheproof {
  algorithm: string;
  numberOfTests: number;
  testGroups: { ivSize: number; keySize: number; tagSize: number; tests: WycheproofTest[] }[];
}

const rfc = loadJson<Rfc>('vectors/rfc8439.json');
const xv = loadJson<XChaCha>('vectors/xchacha.json');
const wycheproof = {
  chacha: loadJson<Wycheproof>('vectors/chacha20_poly1305_test.json'),
  xchacha: loadJson<Wycheproof>('vectors/xchacha20_poly1305_test.json'),
};

const KNOWN_FLAGS = new Set([
  'Ktv',
  'Pseudorandom',
  'EdgeCaseCiphertext',
  'EdgeCasePoly1305',
  'EdgeCasePolyKey',
  'EdgeCaseTag',
  'ModifiedTag',
  'InvalidNonceSize',
]);

it('the transcribed vectors agree with @noble/ciphers and node:crypto (transcription check)', { skip: NO_SODIUM }, async () => {
  await loadSodium();
  for (const v of rfc.chacha20Block) {
    assertBytes(noble.chacha20(hex(v.key), hex(v.nonce), new Uint8Array(64), undefined, v.counter), hex(v.keystream), v.name);
    assertBytes(nodeChacha20(hex(v.key), hex(v.nonce), new Uint8Array(64), v.counter), hex(v.keystream), v.name);
  }
  for (const v of rfc.chacha20Encrypt) {
    assertBytes(nodeChacha20(hex(v.key), hex(v.nonce), hex(v.plaintext), v.counter), hex(v.ciphertext), v.name);
  }
  for (const v of rfc.poly1305) assertBytes(noblePoly1305(hex(v.message), hex(v.key)), hex(v.tag), v.name);
  for (const v of rfc.poly1305KeyGen) assertBytes(nodeChacha20(hex(v.key), hex(v.nonce), new Uint8Array(32), 0), hex(v.otk), v.name);
  for (const v of rfc.aead) {
    assertBytes(nodeAeadEncrypt(hex(v.key), hex(v.nonce), hex(v.aad), hex(v.plaintext)), hex(v.ciphertext + v.tag), v.name);
  }
  for (const v of xv.hchacha20) assertBytes(nobleHchacha(hex(v.key), hex(v.nonce)), hex(v.subkey), v.name);
  for (const v of xv.aead) {
    assertBytes(sodiumAead(true).encrypt(hex(v.key), hex(v.nonce), hex(v.aad), hex(v.plaintext)), hex(v.ciphertext + v.tag), v.name);
  }
  for (const v of xv.xchacha20) {
    assertBytes(noble.xchacha20(hex(v.key), hex(v.nonce), hex(v.plaintext), undefined, v.counter), hex(v.ciphertext), v.name);
  }
  assert.equal(rfc.poly1305.filter((v) => v.name.startsWith('A.3')).length, 11, 'all eleven A.3 Poly1305 vectors');
});

forEachTier('RFC 8439 and XChaCha draft vectors', () => {
  it('ChaCha20 block function (§2.3.2, A.1 #1-#5)', () => {
    for (const v of rfc.chacha20Block) {
      assertBytes(chacha20(hex(v.key), hex(v.nonce), new Uint8Array(64), undefined, v.counter), hex(v.keystream), v.name);
    }
  });

  it('ChaCha20 encryption and decryption (§2.4.2, A.2 #1-#3)', () => {
    for (const v of rfc.chacha20Encrypt) {
      const pt = hex(v.plaintext);
      assertBytes(chacha20(hex(v.key), hex(v.nonce), pt, undefined, v.counter), hex(v.ciphertext), `${v.name} encrypt`);
      assertBytes(chacha20(hex(v.key), hex(v.nonce), hex(v.ciphertext), undefined, v.counter), pt, `${v.name} decrypt`);
      if (v.keystream) {
        assertBytes(chacha20(hex(v.key), hex(v.nonce), new Uint8Array(pt.length), undefined, v.counter), hex(v.keystream), `${v.name} keystream`);
      }
    }
  });

  it('an initial counter of 0 is the default', () => {
    const v = rfc.chacha20Block.find((x) => x.counter === 0)!;
    assertBytes(chacha20(hex(v.key), hex(v.nonce), new Uint8Array(64)), hex(v.keystream), v.name);
  });

  it('Poly1305 (§2.5.2, A.3 #1-#11, and the §2.8.2 / A.5 AEAD inputs), one-shot and incremental', () => {
    for (const v of rfc.poly1305) {
      const msg = hex(v.message);
      assertBytes(poly1305(msg, hex(v.key)), hex(v.tag), `${v.name} one-shot`);
      const h = poly1305.create(hex(v.key));
      for (let i = 0; i < msg.length; i += 7) h.update(msg.subarray(i, i + 7));
      assertBytes(h.digest(), hex(v.tag), `${v.name} incremental`);
    }
  });

  it('Poly1305 key generation (§2.6.2, A.4 #1-#3): the first 32 bytes of block 0', () => {
    for (const v of rfc.poly1305KeyGen) {
      assertBytes(chacha20(hex(v.key), hex(v.nonce), new Uint8Array(32), undefined, 0), hex(v.otk), v.name);
    }
  });

  it('AEAD_CHACHA20_POLY1305 (§2.8.2 encryption, A.5 decryption)', () => {
    for (const v of rfc.aead) {
      const aead = chacha20poly1305(hex(v.key), hex(v.nonce), hex(v.aad));
      assertBytes(aead.encrypt(hex(v.plaintext)), hex(v.ciphertext + v.tag), `${v.name} encrypt`);
      assertBytes(aead.decrypt(hex(v.ciphertext + v.tag)), hex(v.plaintext), `${v.name} decrypt`);
    }
  });

  it('A.5 with a modified tag, ciphertext, nonce or AAD is rejected', () => {
    const v = rfc.aead.find((x) => x.name === 'A.5')!;
    const sealed = hex(v.ciphertext + v.tag);
    const variants: [string, Uint8Array, Uint8Array, Uint8Array][] = [];
    for (const i of [0, 100, sealed.length - 16, sealed.length - 1]) {
      const s = sealed.slice();
      s[i]! ^= 0x01;
      variants.push([`bit flipped at ${i}`, hex(v.nonce), hex(v.aad), s]);
    }
    const n = hex(v.nonce);
    n[11]! ^= 0x80;
    variants.push(['other nonce', n, hex(v.aad), sealed]);
    variants.push(['no aad', hex(v.nonce), new Uint8Array(0), sealed]);
    for (const [label, nonce, aad, input] of variants) {
      assert.throws(() => chacha20poly1305(hex(v.key), nonce, aad).decrypt(input), AuthenticationError, label);
    }
  });

  it('HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2.1)', () => {
    for (const v of xv.hchacha20) assertBytes(hchacha20(hex(v.key), hex(v.nonce)), hex(v.subkey), v.name);
  });

  it('XChaCha20 with block counter 0 and 1 (A.3.2)', () => {
    for (const v of xv.xchacha20) {
      const pt = hex(v.plaintext);
      assertBytes(xchacha20(hex(v.key), hex(v.nonce), pt, undefined, v.counter), hex(v.ciphertext), `${v.name} ciphertext`);
      assertBytes(xchacha20(hex(v.key), hex(v.nonce), new Uint8Array(pt.length), undefined, v.counter), hex(v.keystream), `${v.name} keystream`);
      assertBytes(xchacha20(hex(v.key), hex(v.nonce), hex(v.ciphertext), undefined, BigInt(v.counter)), pt, `${v.name} decrypt, bigint counter`);
    }
  });

  it('AEAD_XCHACHA20_POLY1305 (A.3.1), including its Poly1305 key', () => {
    for (const v of xv.aead) {
      const aead = xchacha20poly1305(hex(v.key), hex(v.nonce), hex(v.aad));
      assertBytes(aead.encrypt(hex(v.plaintext)), hex(v.ciphertext + v.tag), `${v.name} encrypt`);
      assertBytes(aead.decrypt(hex(v.ciphertext + v.tag)), hex(v.plaintext), `${v.name} decrypt`);
      assertBytes(xchacha20(hex(v.key), hex(v.nonce), new Uint8Array(32)), hex(v.poly1305Key), `${v.name} Poly1305 key`);
    }
  });
});

for (const [kind, file] of Object.entries(wycheproof)) {
  const x = kind === 'xchacha';
  const nonceSize = x ? 24 : 12;
  const make = x ? xchacha20poly1305 : chacha20poly1305;
  const cases = file.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, ivSize: g.ivSize, keySize: g.keySize, tagSize: g.tagSize })));

  it(`Wycheproof ${file.algorithm}: the file is what this test expects`, () => {
    assert.equal(cases.length, file.numberOfTests);
    for (const t of cases) {
      for (const f of t.flags) assert.ok(KNOWN_FLAGS.has(f), `tcId ${t.tcId}: unknown flag ${f}; decide how to test it`);
      assert.ok(t.result === 'valid' || t.result === 'invalid', `tcId ${t.tcId}: result ${t.result}`);
      assert.equal(t.keySize, 256);
      assert.equal(t.tagSize, 128);
    }
  });

  forEachTier(`Wycheproof ${file.algorithm}`, () => {
    it(`all ${cases.length} cases`, () => {
      let valid = 0;
      let rejectedTags = 0;
      let rejectedNonces = 0;
      for (const t of cases) {
        const label = `tcId ${t.tcId} (${t.flags.join(',')}${t.comment ? ': ' + t.comment : ''})`;
        const [key, iv, aad, msg, ct, tag] = [t.key, t.iv, t.aad, t.msg, t.ct, t.tag].map(hex) as Uint8Array[];
        const sealed = concat(ct!, tag!);
        if (t.flags.includes('InvalidNonceSize')) {
          assert.equal(t.result, 'invalid', label);
          assert.notEqual(iv!.length, nonceSize, label);
          assert.throws(
            () => make(key!, iv!, aad!).encrypt(msg!),
            (e: unknown) => e instanceof RangeError && /nonce/.test(e.message),
            label,
          );
          assert.throws(
            () => make(key!, iv!, aad!).decrypt(sealed),
            (e: unknown) => e instanceof RangeError && /nonce/.test(e.message),
            label,
          );
          rejectedNonces++;
          continue;
        }
        assert.equal(iv!.length, nonceSize, label);
        const aead = make(key!, iv!, aad!);
        if (t.result === 'valid') {
          assertBytes(aead.encrypt(msg!), sealed, `${label} encrypt`);
          assertBytes(aead.decrypt(sealed), msg!, `${label} decrypt`);
          valid++;
        } else {
          assert.ok(t.flags.includes('ModifiedTag'), `${label}: an invalid case this test does not know`);
          // The ciphertext part is genuine; only the tag was modified.
          const honest = aead.encrypt(msg!);
          assertBytes(honest.subarray(0, ct!.length), ct!, `${label} ciphertext part`);
          assert.notDeepEqual(honest.subarray(ct!.length), tag!, `${label} tag must differ`);
          const out = new Uint8Array(msg!.length).fill(0xee);
          assert.throws(() => aead.decrypt(sealed, out), AuthenticationError, label);
          assert.ok(
            out.every((b) => b === 0),
            `${label}: output must be wiped after a failed decrypt`,
          );
          rejectedTags++;
        }
      }
      assert.equal(valid + rejectedTags + rejectedNonces, cases.length);
      assert.ok(rejectedTags > 0 && rejectedNonces > 0 && valid > 0);
    });
  });
}
