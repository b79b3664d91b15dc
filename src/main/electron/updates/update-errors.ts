import type { UpdateErrorCode } from '../../../shared/updates';

const OFFLINE =
  /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION_(REFUSED|RESET|CLOSED|TIMED_OUT|FAILED)|ERR_ADDRESS_UNREACHABLE|ERR_NETWORK_CHANGED|ERR_TIMED_OUT|ERR_PROXY_CONNECTION_FAILED|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up/;

/**
 * Sorts what electron-updater (and Electron's net) throw into the few cases a user can act on:
 * check the network, check the mirror, or distrust the download.
 */
export function classifyUpdateError(error: unknown): UpdateErrorCode {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const text = `${code} ${error instanceof Error ? error.message : String(error)}`;
  if (
    /ERR_CHECKSUM_MISMATCH|checksum mismatch|ERR_UPDATER_INVALID_SIGNATURE|not signed by the application owner|[Cc]ode signature/.test(text)
  )
    return 'integrity';
  if (
    /ERR_UPDATER_CHANNEL_FILE_NOT_FOUND|ERR_UPDATER_LATEST_VERSION_NOT_FOUND|ERR_UPDATER_NO_PUBLISHED_VERSIONS|ERR_UPDATER_ZIP_FILE_NOT_FOUND|ERR_UPDATER_NO_FILES_PROVIDED|HttpError: 404|\b404\b/.test(
      text,
    )
  )
    return 'feed-missing';
  if (/ERR_UPDATER_INVALID_UPDATE_INFO|ERR_UPDATER_INVALID_VERSION|YAMLException|ERR_UPDATER_INVALID_RELEASE_FEED/.test(text))
    return 'feed-invalid';
  if (/ERR_UPDATE_STALLED/.test(text)) return 'stalled';
  if (OFFLINE.test(text)) return 'offline';
  return 'failed';
}

/** The first line of the message, without the stack electron-updater appends. */
export function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 300);
}
