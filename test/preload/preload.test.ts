import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../helpers/electron-mock')).electronModule);
const { electronMock } = await import('../helpers/electron-mock');
await import('../../src/preload/index');

describe('preload', () => {
  const exposed = electronMock.contextBridge.exposeInMainWorld.mock.calls[0] as unknown as [string, Record<string, unknown>];

  it('exposes the BridgeApi as window.xiaozhi and nothing else', () => {
    expect(electronMock.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(exposed[0]).toBe('xiaozhi');
    expect(typeof exposed[1].getState).toBe('function');
    expect(typeof exposed[1].on).toBe('function');
  });

  it('invokes commands over IPC and validates what comes back', async () => {
    const api = exposed[1] as { getHistory(): Promise<unknown>; getLogs(i: unknown): Promise<unknown> };
    electronMock.ipcRenderer.invoke.mockResolvedValueOnce([] as never);
    await expect(api.getHistory()).resolves.toEqual([]);
    expect(electronMock.ipcRenderer.invoke).toHaveBeenLastCalledWith('xiaozhi:command:getHistory', undefined);
    electronMock.ipcRenderer.invoke.mockResolvedValueOnce('not a list' as never);
    await expect(api.getLogs({})).rejects.toThrow();
    electronMock.ipcRenderer.invoke.mockRejectedValueOnce(
      new Error('Error invoking remote method \'xiaozhi:command:stop\': Error: No server is called "x".') as never,
    );
    await expect(api.getLogs({})).rejects.toThrow(/^No server is called "x"\.$/);
  });

  it('delivers valid events, drops malformed ones, and unsubscribes', () => {
    const api = exposed[1] as { on(e: string, l: (p: unknown) => void): () => void };
    const seen: unknown[] = [];
    const off = api.on('log', (p) => seen.push(p));
    const entry = { seq: 1, time: 1, level: 'info', source: 'app', message: 'hi' };
    electronMock.ipcRenderer.emit('xiaozhi:event:log', {}, entry);
    electronMock.ipcRenderer.emit('xiaozhi:event:log', {}, { nonsense: true });
    off();
    electronMock.ipcRenderer.emit('xiaozhi:event:log', {}, entry);
    expect(seen).toEqual([entry]);
  });
});
