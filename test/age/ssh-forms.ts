/**
 * SSH keys written in forms ssh-keygen does not write but Go's ssh
 * package reads (RFC 4251 §5): an mpint with a leading zero byte it does
 * not need, and an OpenSSH private key file (PROTOCOL.key) whose public
 * key, in the clear, is written so. Made by hand, for the tests that
 * check fourfold names such keys as age does.
 */
import { concat } from '../helpers.js';

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** Reads SSH strings (uint32 length, then bytes) and uint32s from `bytes`, in order. */
class Reader {
  private at = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  uint32(): number {
    this.at += 4;
    return this.view.getUint32(this.at - 4);
  }
  string(): Uint8Array {
    const length = this.uint32();
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }
  rest(): Uint8Array {
    return this.bytes.subarray(this.at);
  }
}

/** An SSH string of `bytes`. */
const sshString = (bytes: Uint8Array): Uint8Array => concat(uint32(bytes.length), bytes);

/** A uint32, big-endian. */
function uint32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

/** An ssh-rsa public key line ("ssh-rsa AAAA...") with one more zero byte before its exponent `e` or modulus `n`. */
export function withLeadingZero(line: string, part: 'e' | 'n'): string {
  const blob = new Reader(fromBase64(line.split(' ')[1]!));
  const [type, e, n] = [blob.string(), blob.string(), blob.string()];
  const padded = (field: Uint8Array, which: 'e' | 'n') => sshString(which === part ? concat(Uint8Array.of(0), field) : field);
  return `ssh-rsa ${toBase64(concat(sshString(type), padded(e, 'e'), padded(n, 'n')))}`;
}

const MAGIC = new TextEncoder().encode('openssh-key-v1\0');

/** An OpenSSH private key file with its public key in the clear replaced by `line`'s (the private section, and so the key, unchanged). */
export function withPublicLine(privateKey: string, line: string): string {
  const file = new Reader(fromBase64(privateKey.replace(/-----[^-]+-----|\s/g, '')).subarray(MAGIC.length));
  const [cipher, kdf, kdfOptions, keys] = [file.string(), file.string(), file.string(), file.uint32()];
  file.string();
  const fields = [sshString(cipher), sshString(kdf), sshString(kdfOptions), uint32(keys), sshString(fromBase64(line.split(' ')[1]!))];
  const body = toBase64(concat(MAGIC, ...fields, file.rest()))
    .match(/.{1,70}/g)!
    .join('\n');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----\n`;
}
