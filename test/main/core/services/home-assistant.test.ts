import { describe, expect, it } from 'vitest';

import { SECRETS } from '../../../helpers/service-stand-ins';
import { serviceRuns } from './service-harness';

/**
 * Home Assistant as it really answers (test/helpers/stand-ins/home-assistant-stand-in.ts, written
 * from homeassistant/components/api/__init__.py, helpers/service.py and helpers/selector.py).
 */
const serve = serviceRuns();
const home =
  (services: string[], states = true) =>
  (base: string) => [{ name: 'home', transport: 'home-assistant', baseUrl: `${base}/ha`, token: SECRETS.ha, services, states }];

describe('Home Assistant actions that return data', () => {
  it('are called with ?return_response and answer what the action responded (a forecast, a to-do list)', async () => {
    const run = await serve(home(['weather.get_forecasts', 'todo.get_items']));
    const forecast = await run.call('weather_get_forecasts', { entity_id: 'weather.home', type: 'daily' });
    expect(forecast.isError).toBe(false);
    expect(JSON.parse(forecast.text)).toMatchObject({ forecast: [{ condition: 'rainy', temperature: 12 }, { condition: 'sunny' }] });
    expect(run.requests('/ha/api/services/weather/get_forecasts')[0]?.path).toBe('/ha/api/services/weather/get_forecasts?return_response');
    const todo = await run.call('todo_get_items', { entity_id: 'todo.shopping_list' });
    expect(JSON.parse(todo.text)).toMatchObject({ items: [{ summary: 'Milk' }, { summary: 'Bread' }] });
  });

  it('an action without a response is still called without it', async () => {
    const run = await serve(home(['light.turn_on']));
    expect((await run.call('light_turn_on', { entity_id: 'light.kitchen' })).text).toBe('Done. Kitchen light: on');
    expect(run.requests('/ha/api/services/light/turn_on')[0]?.path).toBe('/ha/api/services/light/turn_on');
  });
});

describe('Home Assistant actions on a device that does not exist (it answers 200 [] and only logs it)', () => {
  it('are not sent: the model hears that there is no such device', async () => {
    const run = await serve(home(['light.turn_on']));
    expect(await run.call('light_turn_on', { entity_id: 'light.attic' })).toEqual({
      text: 'The tool "light_turn_on" failed: Home Assistant has no device or sensor called "light.attic".',
      isError: true,
    });
    expect(run.requests('/ha/api/services/')).toEqual([]);
    expect(run.standIns.ha.logged).toEqual([]);
  });

  it('a device named as people call it is found by its name', async () => {
    const run = await serve(home(['light.turn_on']));
    expect(await run.call('light_turn_on', { entity_id: 'kitchen light' })).toEqual({ text: 'Done. Kitchen light: on', isError: false });
    expect(run.requests('/ha/api/services/light/turn_on')[0]?.body).toEqual({ entity_id: 'light.kitchen' });
  });

  it('an action that changed nothing says so, with the device as it is', async () => {
    const run = await serve(home(['light.turn_on']));
    expect(await run.call('light_turn_on', { entity_id: 'light.hall' })).toEqual({
      text: 'Done; nothing changed. Hall light: on',
      isError: false,
    });
  });

  it('is said in the voice language', async () => {
    const run = await serve(home(['light.turn_on']), { ui: { language: 'zh-CN' } });
    expect((await run.call('light_turn_on', { entity_id: 'light.attic' })).text).toBe(
      '工具“light_turn_on”出错了：Home Assistant 里没有叫“light.attic”的设备或传感器。',
    );
    expect((await run.call('light_turn_on', { entity_id: 'light.hall' })).text).toBe('已执行，没有变化。Hall light：on');
    expect((await run.call('light_turn_on', { entity_id: 'light.kitchen' })).text).toBe('好了。Kitchen light：on');
  });
});

describe('Home Assistant selectors', () => {
  it('become bounds and choices in the schema, so a wrong value is refused in words before Home Assistant says "400: Bad Request"', async () => {
    const run = await serve(home(['light.turn_on']));
    const { tools } = await run.session.listAllTools();
    const schema = tools.find((t) => t.name === 'light_turn_on')?.inputSchema as { properties: Record<string, unknown> };
    expect(schema.properties.brightness_pct).toMatchObject({ type: 'number', minimum: 0, maximum: 100 });
    expect(schema.properties.flash).toMatchObject({ type: 'string', enum: ['long', 'short'] });
    const tooBright = await run.call('light_turn_on', { entity_id: 'light.kitchen', brightness_pct: 150 });
    expect(tooBright.isError).toBe(true);
    expect(tooBright.text).toMatch(/brightness_pct/);
    expect(tooBright.text).toMatch(/100/);
    expect((await run.call('light_turn_on', { entity_id: 'light.kitchen', flash: 'blink' })).text).toMatch(/long.*short/);
    expect(run.requests('/ha/api/services/')).toEqual([]);
  });

  it('a select of several values is a list of those values; a required field is required', async () => {
    const run = await serve(home(['todo.get_items', 'weather.get_forecasts']));
    const { tools } = await run.session.listAllTools();
    const items = tools.find((t) => t.name === 'todo_get_items')?.inputSchema as { properties: Record<string, unknown> };
    expect(items.properties.status).toMatchObject({ type: 'array', items: { enum: ['needs_action', 'completed'] } });
    const forecasts = tools.find((t) => t.name === 'weather_get_forecasts')?.inputSchema as { required?: string[] };
    expect(forecasts.required).toContain('type');
  });
});

describe('a misspelled action name', () => {
  it('is flagged, with the name meant, and the other actions are served', async () => {
    const run = await serve(home(['light.turn_on', 'light.trun_off'], false));
    const status = run.harness.bridge.state().servers[0];
    expect(status?.state).toBe('running');
    expect(status?.skippedTools).toEqual([{ name: 'light.trun_off', position: 2, reason: 'noSuchAction', near: 'light.turn_off' }]);
    expect((await run.session.listAllTools()).tools.map((t) => t.name)).toContain('light_turn_on');
    expect((await run.call('light_turn_on', { entity_id: 'light.kitchen' })).isError).toBe(false);
  });

  it('when no action asked for exists, the setup fails saying which', async () => {
    const run = await serve(home(['light.trun_on'], false));
    expect(run.harness.bridge.state().servers[0]).toMatchObject({
      state: 'failed',
      lastErrorCause: { code: 'service.setup.noAction', params: { names: 'light.trun_on' } },
    });
  });
});
