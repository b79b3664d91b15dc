import { useState } from 'react';

import type { EndpointSettings } from '../../shared/settings';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { useCommand } from './use-command';

type Patience = EndpointSettings['patience'];

/**
 * How long an endpoint's caller waits for a tool call: read from the URL (auto), xiaozhi.me's 300 s,
 * a self-hosted server's 30 s, or seconds. A call still running near it is answered and goes on.
 */
export function PatiencePicker({ id }: { id: string }) {
  const { store, t } = useApp();
  const run = useCommand();
  const saved: Patience = useStore(store, (d) => d.settings?.endpoints.find((e) => e.id === id)?.patience);
  const [seconds, setSeconds] = useState(typeof saved === 'number' ? String(saved) : '60');
  const choice = saved === undefined ? 'auto' : typeof saved === 'number' ? 'seconds' : saved;
  const save = (patience: Patience | null) => void run(() => store.api.updateEndpoint({ id, patience }));
  return (
    <label className="card-row small muted">
      {t('endpoints.patience')}
      <select
        aria-label={t('endpoints.patience')}
        value={choice}
        onChange={(e) => {
          const value = e.target.value;
          save(value === 'auto' ? null : value === 'seconds' ? Number(seconds) : (value as Patience));
        }}
      >
        <option value="auto">{t('endpoints.patienceAuto')}</option>
        <option value="xiaozhi.me">{t('endpoints.patienceXiaozhiMe')}</option>
        <option value="self-hosted">{t('endpoints.patienceSelfHosted')}</option>
        <option value="seconds">{t('endpoints.patienceSeconds')}</option>
      </select>
      {choice === 'seconds' ? (
        <input
          type="number"
          min={1}
          max={3600}
          aria-label={t('endpoints.patienceSeconds')}
          value={seconds}
          onChange={(e) => setSeconds(e.target.value)}
          onBlur={() => {
            const value = Number(seconds);
            if (Number.isFinite(value) && value >= 1 && value <= 3600 && value !== saved) save(value);
          }}
        />
      ) : null}
    </label>
  );
}
