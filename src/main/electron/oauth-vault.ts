import { safeStorage } from 'electron';

import { FileVault, type TokenVault } from '../core/oauth/token-vault';
import { type SafeStorageLike, secretCodec } from './secret-codec';

/**
 * The desktop app's sign-ins (OAuth tokens): the engine's 0600 file in the app's folder, its
 * content sealed with safeStorage (the OS keychain's key) where that is really available. Without
 * a keychain (Linux with no keyring) it stays a 0600 file, as the settings' secrets do.
 */
export function desktopOAuthVault(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
  storage: SafeStorageLike = safeStorage,
): TokenVault {
  const codec = secretCodec(storage, platform);
  return new FileVault(
    dataDir,
    codec.encrypted ? { seal: (text) => codec.encode(text), open: (sealed) => codec.decode(sealed) } : undefined,
  );
}
