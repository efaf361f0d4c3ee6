/**
 * `npm run test:passkeys`: fourfold/age's passkeys in Chromium (the engine
 * matrix's, launched by playwright-core as its driver launches it), with
 * the DevTools protocol's virtual authenticators (WebAuthn.enable,
 * WebAuthn.addVirtualAuthenticator): a CTAP2 one with PRF, user
 * verification and resident keys, and one without PRF. page.ts, bundled
 * with esbuild and served from http://localhost (a secure context, whose
 * host is the relying party), runs typage's webauthn (npm age-encryption)
 * beside fourfold's; each test opens a fresh page with a fresh
 * authenticator. CI runs it after the engines are installed; where
 * Chromium is not installed it fails under CI=true, and elsewhere skips,
 * saying so. Firefox and WebKitGTK are not driven here: their drivers
 * offer no virtual authenticator (WebDriver's would need geckodriver and
 * WebKitWebDriver), so an authenticator without PRF stands for a browser
 * without it. The format itself, with a software authenticator, is
 * test/age/passkeys.test.ts's.
 *
 *   node --import tsx --test test/webauthn/passkeys.browser.ts
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../scripts/engines/drivers/chromium.js';
import { ENGINES } from '../../scripts/engines/engines.js';

const BINARY = ENGINES.chromium.binary;
const MISSING = existsSync(BINARY) ? false : `Chromium (${BINARY}) is not installed: npm run engines:install`;
if (MISSING && process.env.CI === 'true') throw new Error(`${MISSING}; CI runs this after installing the engines`);
/** A page's check, whatever the authenticator does, ends within this. */
const CHECK_MS = 30_000;

/** The virtual authenticator of a test: an internal (platform) CTAP 2.1 one that verifies the user at once. */
const authenticator = (prf: boolean) => ({
  protocol: 'ctap2',
  ctap2Version: 'ctap2_1',
  transport: 'internal',
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
  hasPrf: prf,
});

let dir: string;
let server: Server;
let origin: string;
let browser: Browser;

before(async () => {
  if (MISSING) return;
  dir = mkdtempSync(join(tmpdir(), 'fourfold-passkeys-'));
  await build({
    entryPoints: [new URL('./page.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: join(dir, 'page.js'),
    logLevel: 'error',
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>passkeys</title><script type="module" src="page.js"></script>');
  server = createServer((request, response) => {
    const name = request.url === '/page.js' ? 'page.js' : 'index.html';
    response.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html' });
    response.end(readFileSync(join(dir, name)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // localhost: a secure context for WebAuthn, and a relying party ID (an IP address is not one).
  origin = `http://localhost:${(server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: BINARY, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  if (MISSING) return;
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh page behind a fresh virtual authenticator, with the check `name` of page.ts run in it; the CDP session to look at the authenticator after. */
async function runCheck(name: string, prf: boolean): Promise<{ value: unknown; credentials: { isResidentCredential: boolean }[] }> {
  const context = await browser.newContext();
  try {
    const page: Page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: authenticator(prf) as never });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'yes', undefined, { timeout: CHECK_MS });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${name}: no result within ${CHECK_MS} ms`)), CHECK_MS)));
    try {
      const value = await Promise.race([
        page.evaluate((n) => (globalThis as never as Record<string, Record<string, () => unknown>>).passkeys![n]!(), name),
        deadline,
      ]);
      assert.deepEqual(errors, [], 'no error in the page');
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return { value, credentials };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await context.close();
  }
}

it('files move both ways between typage and fourfold through one credential, passkey or security key, made by either', { skip: MISSING }, async () => {
  const { value, credentials } = await runCheck('bothWays', true);
  const rows = value as { maker: string; type: string; identity: string; [check: string]: unknown }[];
  assert.equal(rows.length, 4);
  for (const row of rows) {
    assert.deepEqual(row, {
      maker: row.maker,
      type: row.type,
      identity: 'AGE-PLUGIN-FIDO2PRF-1',
      typageToFourfold: true,
      fourfoldToTypage: true,
      streamed: true,
      stanzas: ['-> age-encryption.org/fido2prf', '-> age-encryption.org/fido2prf'],
    });
  }
  // A passkey is discoverable (the authenticator keeps it); a security key's credential is not.
  assert.deepEqual(credentials.map((c) => c.isResidentCredential).sort(), [false, false, true, true]);
});

it("fourfold/age/typage's Encrypter and Decrypter take its webauthn objects: files both ways with typage", { skip: MISSING }, async () => {
  const { value } = await runCheck('typageApiBothWays', true);
  assert.deepEqual(value, { apiToTypage: true, typageToApi: true });
});

it('a discoverable passkey is found by its relying party alone, by both', { skip: MISSING }, async () => {
  const { value } = await runCheck('discoverable', true);
  assert.deepEqual(value, { typageToFourfold: true, fourfoldToTypage: true });
});

it('a wrong credential fails as in typage: no identity matches', { skip: MISSING }, async () => {
  const { value } = await runCheck('wrongCredential', true);
  const v = value as Record<string, { ok: boolean; name?: string; message?: string }>;
  assert.deepEqual(v.rightOne, { ok: true });
  assert.equal(v.fourfold!.name, 'NoIdentityMatchError', v.fourfold!.message);
  assert.match(v.typage!.message!, /^no identity matched any of the file's recipients$/);
});

it('an authenticator without PRF: PrfUnsupportedError, saying so, where typage throws too', { skip: MISSING }, async () => {
  const { value, credentials } = await runCheck('withoutPrf', false);
  const v = value as Record<string, { ok: boolean; name?: string; message?: string; prf?: boolean }>;
  for (const what of ['fourfoldCreate', 'encrypt', 'decrypt']) {
    assert.equal(v[what]!.prf, true, `${what}: ${JSON.stringify(v[what])}`);
    assert.match(v[what]!.message!, /PRF/);
  }
  assert.match(v.fourfoldCreate!.message!, /without the PRF extension/);
  assert.match(v.decrypt!.message!, /no PRF output/);
  assert.equal(v.typageCreate!.ok, false, 'typage refuses it too');
  assert.match(v.typageCreate!.message!, /PRF extension not available/);
  // The browser made both credentials all the same: fourfold's use of one is what the encrypt and decrypt above saw.
  assert.equal(credentials.length, 2);
});
