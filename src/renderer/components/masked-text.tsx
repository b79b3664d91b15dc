import { Fragment } from 'react';

import { MASK_MARKER } from '../../shared/masked';
import { useApp } from '../app-context';

/**
 * A masked value shown as text: the marker in the window's language, kept on one line. A long URL
 * breaks anywhere, and "…（已隐藏）" broke inside itself ("（已隐" / "藏）").
 */
export function MaskedText({ text }: { text: string }) {
  const { t } = useApp();
  return (
    <>
      {text.split(MASK_MARKER).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <span className="masked-marker nowrap">{t('common.masked')}</span> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * An endpoint's address on its card: after its name and state (what a person needs), small and
 * labelled, masked; `shown`, the whole address the person asked to see.
 */
export function EndpointAddress({ url, shown }: { url: string; shown?: string | undefined }) {
  const { t } = useApp();
  // A person reads where it is (host and port) and that its key is hidden; "ws://…/mcp/?token=5VNg…" told a
  // walkthrough nothing. The whole masked address stays the tooltip, for whoever helps.
  const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(url)?.[1];
  if (shown === undefined && host !== undefined) {
    const whole = url.split(MASK_MARKER).join(t('common.masked'));
    return (
      <div className="small muted endpoint-address">
        {t('endpoints.addressLabel')}
        <span className="break" title={whole}>
          <span className="mono">{host}</span>
          {url.includes(MASK_MARKER) ? <span className="masked-marker nowrap">{t('words9.endpoint.keyHidden')}</span> : null}
        </span>
      </div>
    );
  }
  return (
    <div className="small muted endpoint-address">
      {t('endpoints.addressLabel')}
      <span className="mono break">{shown ?? <MaskedText text={url} />}</span>
    </div>
  );
}
