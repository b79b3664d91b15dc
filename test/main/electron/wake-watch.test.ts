import { EventEmitter } from 'node:events';

import { describe, expect, it } from 'vitest';

import { watchWake } from '../../../src/main/electron/wake-watch';
import { waitFor } from '../../helpers/wait';

describe('waking the endpoints', () => {
  it('wakes on resume, on unlock and when the network comes back, not while it stays up', async () => {
    const power = new EventEmitter();
    let online = true;
    let wakes = 0;
    let polls = 0;
    const isOnline = () => {
      polls++;
      return online;
    };
    const stop = watchWake({ powerMonitor: power, isOnline }, () => wakes++, 10);
    power.emit('resume');
    power.emit('unlock-screen');
    expect(wakes).toBe(2);
    online = false;
    const offlineFrom = polls;
    await waitFor(() => polls >= offlineFrom + 3, 2000, 'three looks at the network while it is down');
    expect(wakes).toBe(2);
    online = true;
    await waitFor(() => wakes === 3, 2000, 'the wake when the network is back');
    stop();
  });
});
