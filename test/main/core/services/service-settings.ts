import type { ServerSettings } from '../../../../src/shared/settings';
import { COZE_WORKFLOW, SECRETS } from '../../../helpers/service-stand-ins';

/** One entry of each kind, pointed at the stand-ins (input form: what a config file holds). */
export function serviceEntries(base: string): Record<string, unknown>[] {
  return [
    {
      name: 'coze',
      transport: 'coze',
      baseUrl: `${base}/coze`,
      token: SECRETS.coze,
      workflows: [{ id: COZE_WORKFLOW, tool: 'coze_weather', description: 'Weather by city', inputs: [{ name: 'city' }] }],
    },
    { name: 'dify', transport: 'dify', baseUrl: `${base}/dify/v1`, apiKey: SECRETS.dify, tool: 'dify_forecast', description: 'Forecast' },
    {
      name: 'n8n',
      transport: 'n8n',
      url: `${base}/n8n/webhook/lights`,
      headers: { 'X-N8N-Key': SECRETS.n8n },
      tool: 'set_lights',
      inputs: [{ name: 'room' }, { name: 'state', description: 'on or off' }],
      result: { pick: '/reply' },
    },
    { name: 'home', transport: 'home-assistant', baseUrl: `${base}/ha`, token: SECRETS.ha, services: ['light.turn_on'] },
    { name: 'pets', transport: 'openapi', spec: `${base}/api/openapi.yaml`, credentials: { api_key: SECRETS.petstore } },
    {
      name: 'web',
      transport: 'http-api',
      baseUrl: base,
      headers: { 'X-Api-Key': SECRETS.weather },
      tools: [
        {
          name: 'web_weather',
          url: '/weather',
          query: { city: '{city}' },
          result: { template: 'It is {/data/temp} degrees in {/data/city}' },
        },
        { name: 'web_moved', url: '/moved?city={city}', result: { pick: '/data/city' } },
        { name: 'web_away', url: '/away' },
      ],
    },
  ];
}

export type { ServerSettings };
