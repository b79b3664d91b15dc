import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { FileVault, TOKENS_FILE_NAME } from '../../../src/main/core/oauth/token-vault';
import { tempDirs } from '../../helpers/temp-dirs';

/** A keychain stand-in: reversible, and nothing of the plain text shows in what it returns. */
const keychain = vi.hoisted(() => ({
  available: true,
  isEncryptionAvailable: () => keychain.available,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from([...Buffer.from(plain, 'utf8')].map((b) => b ^ 0x5a)),
  decryptString: (sealed: Buffer) => Buffer.from([...sealed].map((b) => b ^ 0x5a)).toString('utf8'),
}));
vi.mock('electron', () => ({ safeStorage: keychain }));

// The files share their worker (isolate: false): a file before this one (second-instance, through
// src/main/index.ts) may have loaded the vault already, bound to its own Electron mock, which has no
// safeStorage. Loaded again here, the vault sees this file's keychain.
vi.resetModules();
const { desktopOAuthVault } = await import('../../../src/main/electron/oauth-vault');
const tempDir = tempDirs('xt-oauth-vault-');

const record = {
  serverUrl: 'https://mcp.example/mcp',
  tokens: { access_token: 'at-visible-if-plain-123', token_type: 'Bearer', refresh_token: 'rt-visible-if-plain-456' },
};

describe('the desktop sign-in vault', () => {
  it('seals the tokens with the keychain (nothing readable in the file), 0600, and reads them back', async () => {
    keychain.available = true;
    const dir = tempDir();
    const vault = desktopOAuthVault(dir, 'linux');
    await vault.set('cloud', record);
    const text = fs.readFileSync(path.join(dir, TOKENS_FILE_NAME), 'utf8');
    expect(text).not.toContain('at-visible-if-plain-123');
    expect(text).not.toContain('rt-visible-if-plain-456');
    expect(text).toContain('"sealed"');
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, TOKENS_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(await desktopOAuthVault(dir, 'linux').get('cloud')).toEqual(record);
    // A headless run beside it cannot read them, and does not overwrite them.
    const headless = new FileVault(dir);
    expect(await headless.get('cloud')).toBeUndefined();
    await expect(headless.set('other', record)).rejects.toThrow(/kept by the desktop app/);
    expect(await desktopOAuthVault(dir, 'linux').get('cloud')).toEqual(record);
  });

  it('without a keychain keeps a 0600 file, as the settings secrets are kept', async () => {
    keychain.available = false;
    const dir = tempDir();
    const vault = desktopOAuthVault(dir, 'linux');
    await vault.set('cloud', record);
    expect(fs.readFileSync(path.join(dir, TOKENS_FILE_NAME), 'utf8')).toContain('at-visible-if-plain-123');
    expect(await vault.get('cloud')).toEqual(record);
  });
});
