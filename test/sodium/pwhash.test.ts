/**
 * fourfold/sodium's password hashing against libsodium-wrappers-sumo:
 * crypto_pwhash with Argon2id and Argon2i (version 0x13) over limits and
 * lengths, libsodium's memlimit in bytes becoming Argon2's m in KiB;
 * crypto_pwhash_str strings each side verifies from the other;
 * _str_needs_rehash; crypto_pwhash_scryptsalsa208sha256 with libsodium's
 * choice of N, r and p, _ll, and "$7$" strings verified both ways; limits
 * libsodium refuses refused alike, wrong passwords and broken strings
 * false on both.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, loadSumo, mine, native, outcome, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
type Call = (...a: unknown[]) => unknown;
const ID = 2;
const I = 1;

/**
 * crypto_pwhash_str_needs_rehash against libsodium's C call: its answer
 * where that is 0 or 1, and "invalid hash" thrown where it returns -1 (a
 * string it does not read), as libsodium.js's current source throws; 0.8.4
 * answered true there.
 */
function rehash([stored, ops, mem]: [string, number, number], label = ''): void {
  const rc = native((c, put) => c._crypto_pwhash_str_needs_rehash(put(new TextEncoder().encode(`${stored}\0`)), ops, 0, mem));
  const got = outcome(() => sodium.crypto_pwhash_str_needs_rehash(stored, ops, mem));
  assert.deepEqual(got, rc === -1 ? { error: 'Error: invalid hash' } : { value: rc === 1 }, `needs_rehash ${label} ${stored}`);
  if (rc === -1) assert.equal((peer().crypto_pwhash_str_needs_rehash as Call)(stored, ops, mem), true, '0.8.4 answered true');
}

it('crypto_pwhash: Argon2id and Argon2i over limits, lengths and formats', opts, () => {
  for (const [alg, ops] of [
    [ID, 1],
    [ID, 2],
    [ID, 3],
    [I, 3],
    [I, 4],
  ] as const) {
    for (const mem of [8192, 8192 + 1023, 16384, 65536, 1 << 20]) {
      same('crypto_pwhash', [32, 'password', rand(16), ops, mem, alg], `alg ${alg} t ${ops} mem ${mem}`);
    }
  }
  for (const len of [16, 17, 64, 100, 1000]) same('crypto_pwhash', [len, rand(20), rand(16), 2, 8192, ID], `${len} bytes`);
  for (const pw of ['', 'é', rand(0), rand(200)]) same('crypto_pwhash', [32, pw, rand(16), 2, 8192, ID]);
  for (const f of FORMATS) same('crypto_pwhash', [32, 'password', rand(16), 2, 8192, ID, f]);
  same('crypto_pwhash', [32, 'pw', rand(16), 1, 8192, sodium.crypto_pwhash_ALG_DEFAULT]);
  for (const [len, ops, mem, alg, label] of [
    [15, 2, 8192, ID, 'key too short'],
    [32, 0, 8192, ID, 'no pass'],
    [32, 2, 8192, I, 'Argon2i below 3 passes'],
    [32, 2, 8191, ID, 'memory below 8 KiB'],
    [32, 2, 8192, 0, 'algorithm 0'],
    [32, 2, 8192, 3, 'algorithm 3'],
    [32, 1.5, 8192, ID, 'fractional opslimit'],
    [32, 2, -1, ID, 'negative memlimit'],
  ] as const) {
    same('crypto_pwhash', [len, 'pw', rand(16), ops, mem, alg], label);
  }
  same('crypto_pwhash', [32, 'pw', rand(15), 2, 8192, ID]);
  same('crypto_pwhash', [32, 5, rand(16), 2, 8192, ID]);
});

it("crypto_pwhash_str: each verifies the other's strings; wrong passwords and broken strings are false on both", opts, () => {
  for (const [ops, mem] of [
    [1, 8192],
    [2, 16384],
    [3, 65536 + 512],
  ]) {
    for (const password of ['correct horse', 'é', '', rand(40)]) {
      const ours = sodium.crypto_pwhash_str(password, ops, mem);
      const theirs = (peer().crypto_pwhash_str as Call)(password, ops, mem) as string;
      assert.match(ours, new RegExp(`^\\$argon2id\\$v=19\\$m=${Math.floor(mem / 1024)},t=${ops},p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}$`));
      for (const stored of [ours, theirs]) {
        same('crypto_pwhash_str_verify', [stored, password]);
        same('crypto_pwhash_str_verify', [stored, 'wrong']);
        rehash([stored, ops, mem]);
        rehash([stored, ops + 1, mem]);
        rehash([stored, ops, mem * 2]);
        rehash([stored, ops, mem + 1]);
        // Every position changed, one at a time: both read the same strings and agree on each.
        for (let i = 1; i < stored.length; i += 9) {
          const broken = stored.slice(0, i) + (stored[i] === 'A' ? 'B' : 'A') + stored.slice(i + 1);
          same('crypto_pwhash_str_verify', [broken, password], `position ${i}`);
          rehash([broken, ops, mem], `position ${i}`);
        }
      }
    }
  }
  // RFC 9106-era strings from elsewhere: Argon2i, other lengths of salt and hash.
  const argon2i = '$argon2i$v=19$m=4096,t=3,p=1$c29tZXNhbHQ$iWh06vD8Fy27wf9npn6FXWiCX4K6pW6Ue1Bnzz07Z8A';
  same('crypto_pwhash_str_verify', [argon2i, 'password']);
  rehash([argon2i, 3, 4096 * 1024]);
  for (const junk of [
    '',
    'junk',
    '$argon2d$v=19$m=4096,t=3,p=1$c29tZXNhbHQ$iWh06vD8Fy27wf9npn6FXWiCX4K6pW6Ue1Bnzz07Z8A',
    '$argon2id$v=16$m=8,t=1,p=1$c29tZXNhbHQ$aaaaaaaaaaaaaaaaaaaaaa',
  ]) {
    same('crypto_pwhash_str_verify', [junk, 'password'], junk);
    rehash([junk, 2, 8192], junk);
  }
  // Spellings other readers take and libsodium's decode_string may not: each against the C call's return code.
  const salt = 'c29tZXNhbHQ';
  const hash = 'iWh06vD8Fy27wf9npn6FXWiCX4K6pW6Ue1Bnzz07Z8A';
  for (const spelling of [
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash}`,
    `$argon2id$m=4096,t=3,p=1$${salt}$${hash}`,
    `$argon2id$v=19$t=3,m=4096,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,p=1,t=3$${salt}$${hash}`,
    `$argon2id$v=19$m=04096,t=3,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1,keyid=AAAA$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1,data=AAAA$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}=$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash}=`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt.slice(0, -1)}R$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash.slice(0, -1)}B`,
    `$argon2id$v=19$m=4096,t=3,p=1$c29tZXNhbA$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1$c29tZXNhbHRz$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash.slice(0, 20)}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash.slice(0, 22)}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash}${'A'.repeat(60)}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash}${'A'.repeat(43)}`,
    `$argon2id$v=19$m=8,t=1,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=7,t=1,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,t=0,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=0$${salt}$${hash}`,
    `$argon2id$v=19$m=16,t=3,p=3$${salt}$${hash}`,
    `$argon2id$v=19$m=2097152,t=4294967295,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=2097153,t=3,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4294967295,t=4294967295,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4294967296,t=3,p=1$${salt}$${hash}`,
    `$argon2id$v=19$m=4096,t=3,p=1$${salt}$${hash}$`,
    `$argon2i$v=19$m=4096,t=3,p=1$${salt}$${hash} `,
    `$argon2id$v=19$m=4096,t=+3,p=1$${salt}$${hash}`,
  ]) {
    rehash([spelling, 3, 4096 * 1024], spelling);
    rehash([spelling.replace('argon2id', 'argon2i'), 2, 8192], spelling);
  }
  assert.throws(() => sodium.crypto_pwhash_str_needs_rehash(5 as never, 2, 8192), { name: 'TypeError', message: 'hashed_password must be a string' });
  same('crypto_pwhash_str', ['pw', 0, 8192]);
  same('crypto_pwhash_str', ['pw', 2, 100]);
});

it('crypto_pwhash_scryptsalsa208sha256: libsodium\'s N, r and p for each limit; _ll; "$7$" strings both ways', opts, () => {
  for (const [ops, mem] of [
    [0, 0],
    [32768, 16777216],
    [100000, 1 << 20],
    [524288, 16777216],
    [1 << 20, 1 << 18],
    [2097152, 1 << 20],
  ]) {
    same('crypto_pwhash_scryptsalsa208sha256', [32, 'password', rand(32), ops, mem], `${ops}/${mem}`);
  }
  for (const f of FORMATS) same('crypto_pwhash_scryptsalsa208sha256', [64, rand(10), rand(32), 32768, 1 << 24, f]);
  same('crypto_pwhash_scryptsalsa208sha256', [32, 'pw', rand(16), 32768, 1 << 24]);
  // Keys below crypto_pwhash_scryptsalsa208sha256_BYTES_MIN (16) are refused; _ll derives any length, none included.
  for (const len of [0, 1, 15, 16, 17]) same('crypto_pwhash_scryptsalsa208sha256', [len, 'pw', rand(32), 32768, 1 << 20], `${len} bytes`);
  for (const [N, r, p, len] of [
    [16, 1, 1, 0],
    [1000, 1, 1, 0],
    [16, 0, 1, 0],
    [16, 1, 1, 1],
    // N = 2^(16r): past RFC 7914's bound, within libsodium's.
    [65536, 1, 1, 32],
    [2 ** 32, 1, 1, 32],
    [16, 1, 1, 64],
    [1024, 8, 1, 32],
    [2, 1, 3, 10],
    [1000, 8, 1, 32],
    [1, 8, 1, 32],
    [16, 0, 1, 32],
    [16, 8, 0, 32],
  ]) {
    same('crypto_pwhash_scryptsalsa208sha256_ll', ['password', 'NaCl', N, r, p, len], `${N} ${r} ${p}`);
    same('crypto_pwhash_scryptsalsa208sha256_ll', [rand(7), rand(9), N, r, p, len, 'hex'], `${N} ${r} ${p}`);
  }
  for (const [ops, mem] of [
    [32768, 16777216],
    [200000, 1 << 20],
  ]) {
    for (const password of ['pass', 'é', '']) {
      const ours = sodium.crypto_pwhash_scryptsalsa208sha256_str(password, ops, mem);
      const theirs = (peer().crypto_pwhash_scryptsalsa208sha256_str as Call)(password, ops, mem) as string;
      assert.equal(ours.length, 101);
      assert.equal(ours.slice(0, 14), theirs.slice(0, 14), 'the same N, r and p');
      for (const stored of [ours, theirs]) {
        same('crypto_pwhash_scryptsalsa208sha256_str_verify', [stored, password]);
        same('crypto_pwhash_scryptsalsa208sha256_str_verify', [stored, `${password}x`]);
        for (const i of [3, 5, 10, 20, 57, 60, 100]) {
          const broken = stored.slice(0, i) + (stored[i] === '.' ? '/' : '.') + stored.slice(i + 1);
          same('crypto_pwhash_scryptsalsa208sha256_str_verify', [broken, password], `position ${i}`);
        }
        same('crypto_pwhash_scryptsalsa208sha256_str_verify', [`${stored}x`, password]);
        same('crypto_pwhash_scryptsalsa208sha256_str_verify', [stored.slice(0, 100), password]);
      }
    }
  }
  same('crypto_pwhash_scryptsalsa208sha256_str_verify', ['junk', 'pw']);
  assert.equal(typeof mine.crypto_pwhash_scryptsalsa208sha256_str_verify, 'function');
});

it('a stored string asking for more than 4 GiB of memory passes is refused before any work (computed, it would take hours)', () => {
  // Argon2id, t = 2^32 - 1 over 8 KiB: hours if computed. Built from a real string, its t changed.
  const real = sodium.crypto_pwhash_str('pw', 1, 8192);
  const hostile = real.replace(/t=\d+/, `t=${2 ** 32 - 1}`);
  assert.throws(() => sodium.crypto_pwhash_str_verify(hostile, 'pw'), { name: 'RangeError', message: /memory passes, over the 4 GiB/ });
  const huge = real.replace(/m=\d+/, `m=${2 ** 22}`).replace(/t=\d+/, 't=2');
  assert.throws(() => sodium.crypto_pwhash_str_verify(huge, 'pw'), RangeError, 't = 2 over 4 GiB');
  // scrypt's "$7$": N = 2^40 (logN 40: 'c' in its alphabet), r and p of the real string.
  const scrypt = sodium.crypto_pwhash_scryptsalsa208sha256_str('pw', 32768, 16777216);
  const bigN = `$7$${'./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[40]}${scrypt.slice(4)}`;
  assert.throws(() => sodium.crypto_pwhash_scryptsalsa208sha256_str_verify(bigN, 'pw'), RangeError);
  assert.equal(sodium.crypto_pwhash_str_verify(real, 'pw'), true, 'an ordinary string still verifies');
  assert.equal(sodium.crypto_pwhash_scryptsalsa208sha256_str_verify(scrypt, 'pw'), true);
});
