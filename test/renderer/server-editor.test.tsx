// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('the server form', () => {
  it('shows each problem under its field and saves nothing until it is fixed', async () => {
    const harness = newBridge({ servers: [{ name: 'taken', transport: 'stdio', command: 'node', enabled: false }] });
    const onClose = vi.fn();
    await renderWithBridge(harness, <ServerEditor existingNames={['taken']} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required.')).toBeTruthy();
    expect(screen.getByText('Enter the program to run, such as npx or uvx.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'taken' } });
    expect(await screen.findByText('Another server already has this name.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'memory' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.change(screen.getByLabelText('Arguments'), { target: { value: '-y\n@modelcontextprotocol/server-memory\n' } });
    fireEvent.click(screen.getByRole('button', { name: '+ Add' }));
    fireEvent.change(screen.getByLabelText('Name 1'), { target: { value: 'MEMORY_FILE_PATH' } });
    fireEvent.change(screen.getByLabelText('Value 1'), { target: { value: '/tmp/m.json' } });
    expect(harness.store.load().servers).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(harness.store.load().servers[1]).toEqual({
      name: 'memory',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: '/tmp/m.json' },
      enabled: true,
    });
  });

  it('switches to remote fields and validates the URL', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <ServerEditor existingNames={[]} onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'streamable-http' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'remote' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'ftp://nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter an address starting with http:// or https://.')).toBeTruthy();
    expect(screen.queryByLabelText('Command')).toBeNull();
  });

  it('round-trips through the raw JSON mode and reports JSON it cannot use', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <ServerEditor existingNames={[]} onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'fs' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit as JSON' }));
    const raw = screen.getByLabelText('Server as JSON') as HTMLTextAreaElement;
    expect(JSON.parse(raw.value)).toMatchObject({ name: 'fs', transport: 'stdio', command: 'npx' });
    fireEvent.change(raw, { target: { value: '{"name": "fs", "transport": "stdio"' } });
    fireEvent.click(screen.getByRole('button', { name: 'Back to the form' }));
    expect(await screen.findByText(/Not valid JSON/)).toBeTruthy();
    fireEvent.change(raw, { target: { value: '{"name": "fs2", "transport": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Back to the form' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('fs2');
    expect((screen.getByLabelText('Arguments') as HTMLTextAreaElement).value).toBe('mcp-server-fetch');
  });
});
