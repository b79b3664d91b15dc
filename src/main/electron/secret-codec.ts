import { isMcpServer, type Settings } from '../../shared/settings';
import { looksSecret } from '../core/logs/redact';
import { mapServiceSecrets } from '../core/secrets/service-secrets';

/** Electron's safeStorage, as far as we need it (a seam for tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

const PREFIX = 'enc:v1:';

export interface SecretCodec {
  readonly encrypted: boolean;
  /** How secrets are kept, for the UI (which words it in the user's language). */
  readonly storage: 'encrypted' | 'no-keyring' | 'unavailable';
  encode(value: string): string;
  decode(value: string): string;
}

export function secretCodec(storage: SafeStorageLike, platform: NodeJS.Platform): SecretCodec {
  const backend = platform === 'linux' ? storage.getSelectedStorageBackend?.() : undefined;
  // On Linux without a keyring, Electron "encrypts" with a hard-coded password: that is not secret.
  const usable = storage.isEncryptionAvailable() && backend !== 'basic_text';
  return {
    encrypted: usable,
    storage: usable ? 'encrypted' : platform === 'linux' ? 'no-keyring' : 'unavailable',
    encode: (value) => (usable ? PREFIX + storage.encryptString(value).toString('base64') : value),
    decode: (value) => {
      if (!value.startsWith(PREFIX)) return value;
      return storage.decryptString(Buffer.from(value.slice(PREFIX.length), 'base64'));
    },
  };
}

const mapSecrets = (record: Record<string, string>, fn: (v: string) => string) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, looksSecret(k) ? fn(v) : v]));

/** Applies `fn` to every secret of the settings: endpoint URLs, secret env/header values, API keys (ModelScope's, the chat model's), the local server's token, the confirmation PIN. */
export function mapSettingsSecrets(settings: Settings, fn: (value: string) => string): Settings {
  return {
    ...settings,
    endpoints: settings.endpoints.map((e) => ({ ...e, url: fn(e.url) })),
    servers: settings.servers.map((s) =>
      !isMcpServer(s)
        ? mapServiceSecrets(s, fn)
        : s.transport === 'stdio'
          ? { ...s, env: mapSecrets(s.env, fn) }
          : {
              ...s,
              headers: mapSecrets(s.headers, fn),
              ...(s.oauth?.clientSecret !== undefined ? { oauth: { ...s.oauth, clientSecret: fn(s.oauth.clientSecret) } } : {}),
            },
    ),
    modelscope: settings.modelscope.apiKey ? { ...settings.modelscope, apiKey: fn(settings.modelscope.apiKey) } : settings.modelscope,
    ...(settings.model ? { model: settings.model.apiKey ? { ...settings.model, apiKey: fn(settings.model.apiKey) } : settings.model } : {}),
    localServer: settings.localServer?.token ? { ...settings.localServer, token: fn(settings.localServer.token) } : settings.localServer,
    confirmation:
      settings.confirmation?.pin !== undefined ? { ...settings.confirmation, pin: fn(settings.confirmation.pin) } : settings.confirmation,
  };
}
