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
  return (
    <div className="small muted endpoint-address">
      {t('endpoints.addressLabel')}
      <span className="mono break">{shown ?? <MaskedText text={url} />}</span>
    </div>
  );
}
