// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** Issue 33: a server added by hand with the command of one already held was accepted without a word. */
describe('a server added by hand that copies one already held', () => {
  it('is flagged before it is saved, naming the one it copies (npx -y or not)', async () => {
    const harness = newBridge({
      servers: [
        { name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], enabled: false },
      ],
    });
    await renderWithBridge(harness, <ServerEditor existingNames={['memory']} onClose={() => undefined} />, 'zh-CN');
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '记忆' } });
    fireEvent.change(screen.getByLabelText('命令'), { target: { value: 'npx' } });
    fireEvent.change(screen.getByLabelText('参数'), { target: { value: '@modelcontextprotocol/server-memory' } });
    expect(await screen.findByText(/^它运行的程序和“memory”相同。/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('参数'), { target: { value: '@modelcontextprotocol/server-filesystem' } });
    expect(screen.queryByText(/^它运行的程序和/)).toBeNull();
  });

  it('editing the server itself is no copy', async () => {
    const memory = {
      name: 'memory',
      transport: 'stdio' as const,
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: {},
      enabled: false,
    };
    const harness = newBridge({ servers: [memory] });
    await renderWithBridge(harness, <ServerEditor server={memory} existingNames={['memory']} onClose={() => undefined} />);
    expect(await screen.findByLabelText('Name')).toBeTruthy();
    expect(screen.queryByText(/runs the same program/)).toBeNull();
  });
});
