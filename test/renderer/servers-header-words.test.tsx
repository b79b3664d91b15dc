// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ServersPage } from '../../src/renderer/pages/servers-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** Walkthrough 4 (issue 33): the servers page header's menus spoke to developers (OpenAPI, n8n Webhook, MCP 客户端). */
describe("the servers page header's menus, for someone who is not a developer", () => {
  it('each platform says in a plain line what it is for, its product name kept (zh-CN)', async () => {
    await renderWithBridge(newBridge({}), <ServersPage />, 'zh-CN');
    fireEvent.click(await screen.findByRole('button', { name: /接入已有平台/ }));
    const menu = screen.getByRole('menu');
    const described = (name: string) => {
      const item = within(menu).getByRole('menuitem', { name });
      return document.getElementById(item.getAttribute('aria-describedby') ?? '')?.textContent;
    };
    expect(described('网络 API（HTTP 请求）')).toBe('让小智访问一个网站的接口，例如查天气：你填网址和要问的内容。');
    expect(described('OpenAPI')).toBe('网站提供了 OpenAPI 说明文件时用它：它的每个功能都会变成小智的工具。');
    expect(described('n8n Webhook')).toBe('让小智启动你在 n8n 上做好的自动化流程。');
    for (const item of within(menu).getAllByRole('menuitem')) expect(item.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('each platform says what it is for in English too', async () => {
    await renderWithBridge(newBridge({}), <ServersPage />, 'en');
    fireEvent.click(await screen.findByRole('button', { name: /Connect a platform you use/ }));
    const item = within(screen.getByRole('menu')).getByRole('menuitem', { name: 'n8n webhook' });
    expect(document.getElementById(item.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Lets xiaozhi start an automation you built in n8n.',
    );
  });

  it('the import menu with nothing found says so without "MCP 客户端"', async () => {
    await renderWithBridge(newBridge({}), <ServersPage />, 'zh-CN');
    fireEvent.click(await screen.findByRole('button', { name: /导入已有配置/ }));
    expect(await screen.findByText('这台电脑上没找到其他 AI 应用的配置。')).toBeTruthy();
  });
});
