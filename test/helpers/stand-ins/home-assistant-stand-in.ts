import { bearer, json, record, type StandInRequest, text } from './stand-in-http';

/**
 * Home Assistant's REST API as the platform answers it, written from its own source and tests
 * (home-assistant/core):
 * - homeassistant/components/api/__init__.py: `GET /api/` → `{"message": "API running."}`;
 *   `GET /api/services` → `[{domain, services}]` from `async_get_all_descriptions`;
 *   `GET /api/states/<id>` → the state, or 404 `{"message": "Entity not found."}`;
 *   `POST /api/services/<domain>/<service>`: an unknown service or data its schema refuses
 *   (`ServiceNotFound`, `vol.Invalid`) is aiohttp's bare `HTTPBadRequest` ("400: Bad Request");
 *   `?return_response` on an action without a response is 400 "Service does not support responses.
 *   Remove return_response from request."; an action that only responds, called without it, is 400
 *   "Service call requires responses but caller did not ask for responses. Add ?return_response to
 *   query parameters."; otherwise 200 with the states this call changed (a list), or with
 *   `?return_response` `{"changed_states": [...], "service_response": {...}}`.
 * - homeassistant/helpers/service.py: a description is `{name, description, fields, target?}` plus
 *   `response: {optional}` when the action responds; an entity the call names that does not exist
 *   is only logged ("Referenced entities … are missing"): the call answers 200 with no change; an
 *   action asked for a response that matched no entity raises HomeAssistantError ("Service call
 *   requested response data but did not match any entities"), which the view does not catch: 500.
 * - homeassistant/helpers/selector.py: `number: {min, max, step, unit_of_measurement, mode}`,
 *   `select: {options: [str | {value, label}], multiple}`; fields may sit in a section
 *   (`{collapsed, fields: {...}}`).
 * - tests/components/api/test_init.py: a service call with data answers the changed states;
 *   `test_api_call_service_not_found` and `..._bad_data` answer 400; `test_api_get_non_existing_state` 404.
 * - A request without a valid token: aiohttp's `HTTPUnauthorized`, "401: Unauthorized".
 */

export interface HomeState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
}

type Handler = (data: Record<string, unknown>, entities: HomeState[]) => unknown;

interface Action {
  description: Record<string, unknown>;
  /** NONE (absent), OPTIONAL or ONLY, as `SupportsResponse` says. */
  response?: 'optional' | 'only';
  /** Checks the data as the action's voluptuous schema does: false is a 400. */
  valid?: (data: Record<string, unknown>) => boolean;
  /** Changes entities (returns nothing) or answers a response (per entity). */
  run: Handler;
}

const entityIds = (data: Record<string, unknown>): string[] => {
  const ids = data.entity_id;
  return (Array.isArray(ids) ? ids : typeof ids === 'string' ? ids.split(',') : []).map((id) => String(id).trim());
};

const inRange = (value: unknown, min: number, max: number) =>
  value === undefined || (typeof value === 'number' && value >= min && value <= max);

export class HomeAssistantStandIn {
  readonly token: string;
  readonly states: HomeState[] = [
    { entity_id: 'light.kitchen', state: 'off', attributes: { friendly_name: 'Kitchen light' } },
    { entity_id: 'light.hall', state: 'on', attributes: { friendly_name: 'Hall light', brightness: 255 } },
    {
      entity_id: 'sensor.living_room_temperature',
      state: '21.5',
      attributes: { friendly_name: 'Living room temperature', unit_of_measurement: '°C' },
    },
    { entity_id: 'weather.home', state: 'rainy', attributes: { friendly_name: 'Forecast Home' } },
    { entity_id: 'todo.shopping_list', state: '2', attributes: { friendly_name: 'Shopping list' } },
  ];
  /** What HA logged (the warnings a missing entity causes). */
  readonly logged: string[] = [];

  private readonly actions = new Map<string, Action>([
    [
      'light.turn_on',
      {
        description: {
          name: 'Turn on',
          description: 'Turns on one or more lights and adjusts their properties, even when they are turned on already.',
          fields: {
            brightness_pct: {
              filter: { attribute: { supported_color_modes: ['brightness'] } },
              selector: { number: { min: 0, max: 100, unit_of_measurement: '%' } },
              name: 'Brightness',
              description: 'Number indicating the percentage of full brightness.',
            },
            advanced_fields: {
              collapsed: true,
              fields: {
                flash: {
                  selector: {
                    select: {
                      options: [
                        { label: 'Long', value: 'long' },
                        { label: 'Short', value: 'short' },
                      ],
                    },
                  },
                  name: 'Flash',
                  description: 'Tell light to flash, can be either value short or long.',
                },
              },
            },
          },
          target: { entity: [{ domain: ['light'] }] },
        },
        valid: (data) =>
          inRange(data.brightness_pct, 0, 100) && (data.flash === undefined || ['long', 'short'].includes(String(data.flash))),
        run: (data, entities) => {
          for (const entity of entities)
            this.change(
              entity,
              'on',
              data.brightness_pct !== undefined ? { brightness: Math.round(Number(data.brightness_pct) * 2.55) } : {},
            );
        },
      },
    ],
    [
      'light.turn_off',
      {
        description: {
          name: 'Turn off',
          description: 'Turns off one or more lights.',
          fields: {},
          target: { entity: [{ domain: ['light'] }] },
        },
        run: (_data, entities) => {
          for (const entity of entities) this.change(entity, 'off', {});
        },
      },
    ],
    [
      'weather.get_forecasts',
      {
        description: {
          name: 'Get forecasts',
          description: 'Get weather forecasts.',
          fields: {
            type: {
              required: true,
              selector: { select: { options: ['daily', 'hourly', 'twice_daily'], translation_key: 'forecast_type' } },
              name: 'Forecast type',
              description: 'Forecast type: daily, hourly or twice daily.',
            },
          },
          target: { entity: [{ domain: ['weather'], supported_features: [1, 2, 4] }] },
        },
        response: 'only',
        valid: (data) => ['daily', 'hourly', 'twice_daily'].includes(String(data.type)),
        run: (data, entities) =>
          Object.fromEntries(
            entities.map((e) => [
              e.entity_id,
              {
                forecast:
                  data.type === 'daily'
                    ? [
                        {
                          condition: 'rainy',
                          datetime: '2026-12-07T12:00:00+00:00',
                          temperature: 12,
                          templow: 6,
                          precipitation_probability: 80,
                        },
                        {
                          condition: 'sunny',
                          datetime: '2026-12-08T12:00:00+00:00',
                          temperature: 14,
                          templow: 5,
                          precipitation_probability: 0,
                        },
                      ]
                    : [{ condition: 'rainy', datetime: '2026-12-07T13:00:00+00:00', temperature: 11, precipitation_probability: 70 }],
              },
            ]),
          ),
      },
    ],
    [
      'todo.get_items',
      {
        description: {
          name: 'Get to-do list items',
          description: 'Gets items on a to-do list.',
          fields: {
            status: {
              example: 'needs_action',
              default: 'needs_action',
              selector: { select: { translation_key: 'status', options: ['needs_action', 'completed'], multiple: true } },
              name: 'Status',
              description: 'Only return to-do items with the specified statuses.',
            },
          },
          target: { entity: [{ domain: ['todo'] }] },
        },
        response: 'only',
        run: (_data, entities) =>
          Object.fromEntries(
            entities.map((e) => [
              e.entity_id,
              {
                items: [
                  { summary: 'Milk', uid: '1', status: 'needs_action' },
                  { summary: 'Bread', uid: '2', status: 'needs_action' },
                ],
              },
            ]),
          ),
      },
    ],
  ]);

  constructor(token: string) {
    this.token = token;
  }

  state(id: string): HomeState | undefined {
    return this.states.find((s) => s.entity_id === id);
  }

  /** Sets an entity's state without a service call (a light someone switched by hand). */
  set(id: string, state: string): void {
    const entity = this.state(id);
    if (entity) entity.state = state;
  }

  handle(req: StandInRequest): void {
    const { res, path } = req;
    if (!bearer(req, this.token)) return text(res, 401, '401: Unauthorized');
    if (path === '/api/' && req.method === 'GET') return json(res, 200, { message: 'API running.' });
    if (path === '/api/services' && req.method === 'GET') {
      const domains = new Map<string, Record<string, unknown>>();
      for (const [name, action] of this.actions) {
        const [domain, service] = name.split('.') as [string, string];
        const services = domains.get(domain) ?? {};
        services[service] = {
          ...action.description,
          ...(action.response ? { response: { optional: action.response === 'optional' } } : {}),
        };
        domains.set(domain, services);
      }
      return json(
        res,
        200,
        [...domains].map(([domain, services]) => ({ domain, services })),
      );
    }
    if (path === '/api/states' && req.method === 'GET') return json(res, 200, this.states);
    const one = /^\/api\/states\/(.+)$/.exec(path);
    if (one && req.method === 'GET') {
      const found = this.state(decodeURIComponent(one[1] as string));
      return found ? json(res, 200, found) : json(res, 404, { message: 'Entity not found.' });
    }
    const call = /^\/api\/services\/([^/]+)\/([^/]+)$/.exec(path);
    if (call && req.method === 'POST') return this.call(req, `${call[1]}.${call[2]}`);
    return json(res, 404, { message: 'Not found' });
  }

  private call(req: StandInRequest, name: string): void {
    const { res } = req;
    const action = this.actions.get(name);
    if (!action) return text(res, 400, '400: Bad Request');
    const wantsResponse = req.query.has('return_response');
    if (wantsResponse && !action.response)
      return json(res, 400, { message: 'Service does not support responses. Remove return_response from request.' });
    if (!wantsResponse && action.response === 'only')
      return json(res, 400, {
        message: 'Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.',
      });
    const data = record(req.body);
    if (action.valid && !action.valid(data)) return text(res, 400, '400: Bad Request');
    const ids = entityIds(data);
    const entities = ids.map((id) => this.state(id)).filter((e): e is HomeState => e !== undefined);
    const missing = ids.filter((id) => !this.state(id));
    if (missing.length > 0) this.logged.push(`Referenced entities ${missing.join(', ')} are missing or not currently available`);
    const changed: HomeState[] = [];
    this.changed = changed;
    const response = action.run(data, entities);
    this.changed = undefined;
    if (wantsResponse && entities.length === 0)
      return text(res, 500, '500 Internal Server Error\n\nServer got itself in trouble', 'text/plain; charset=utf-8');
    if (wantsResponse) return json(res, 200, { changed_states: changed, service_response: response ?? {} });
    return json(res, 200, changed);
  }

  private changed: HomeState[] | undefined;

  /** A state written as `hass.states.async_set` does: only a real change fires state_changed (and is answered). */
  private change(entity: HomeState, state: string, attributes: Record<string, unknown>): void {
    const next = { ...entity.attributes, ...attributes };
    if (entity.state === state && JSON.stringify(next) === JSON.stringify(entity.attributes)) return;
    entity.state = state;
    entity.attributes = next;
    this.changed?.push({ ...entity, attributes: { ...next } });
  }
}
