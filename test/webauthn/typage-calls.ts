/** typage's one-shot calls with one recipient or identity object, as the passkey tests (test/age/passkeys.test.ts, page.ts) use them. */
import { Decrypter, Encrypter } from 'age-encryption';

/** `plain` encrypted by typage to the recipient object `recipient`. */
export async function typageEncrypt(plain: Uint8Array, recipient: unknown): Promise<Uint8Array> {
  const e = new Encrypter();
  e.addRecipient(recipient as never);
  return e.encrypt(plain);
}

/** The plaintext of `file` decrypted by typage with the identity object `identity`. */
export async function typageDecrypt(file: Uint8Array, identity: unknown): Promise<Uint8Array> {
  const d = new Decrypter();
  d.addIdentity(identity as never);
  return d.decrypt(file);
}
