import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import { isRecord } from '../../../shared/is-record';
import { nameRecord, own } from '../../../shared/own';
import { problem } from '../../../shared/problem';
import type { HomeAssistantSettingsSchema } from '../../../shared/settings';
import { closest } from '../../../shared/suggest';
import { selectorSchema } from './home-assistant-selectors';
import { httpProblem, joinUrl, type RequestOptions, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { type ServiceContext, type ServiceTool, textAnswer } from './service-tools';

type HomeAssistantSettings = z.output<typeof HomeAssistantSettingsSchema>;
type Node = Record<string, unknown>;

/** States a spoken answer lists at most (a service that changed a whole house). */
const MAX_STATES_SAID = 10;
/** Fields of one action served at most. */
const MAX_FIELDS = 50;

/**
 * Home Assistant's REST API (homeassistant/components/api/__init__.py): every request with
 * `Authorization: Bearer <long-lived token>`; `GET /api/services` describes each action, its fields
 * (with selectors) and whether it answers data (`response`); `POST /api/services/<domain>/<action>`
 * runs one and answers the states it changed, or with `?return_response` also what it answered;
 * `GET /api/states/<entity_id>` reads one entity, `GET /api/states` all of them.
 */
export async function homeAssistantTools(settings: HomeAssistantSettings, context: ServiceContext): Promise<ServiceTool[]> {
  const auth = { authorization: `Bearer ${settings.token}` };
  const platform = context.http.platform;
  const home = new Home(settings.baseUrl, auth, context);
  const tools: ServiceTool[] = [];
  if (settings.services.length > 0) {
    const described = await context.http.sendJson(
      { method: 'GET', url: joinUrl(settings.baseUrl, '/api/services'), headers: auth },
      { timeoutMs: context.timeoutMs },
    );
    const known = knownActions(described);
    const missing: string[] = [];
    settings.services.forEach((name, index) => {
      const spec = known.get(name);
      if (!spec) {
        missing.push(name);
        // One misspelled name leaves out that action only, said with the one meant.
        const near = closest(name, [...known.keys()]);
        context.leaveOut({ name, position: index + 1, reason: 'noSuchAction', ...(near ? { near } : {}) });
        return;
      }
      const [domain, service] = name.split('.') as [string, string];
      tools.push({
        tool: actionTool(domain, service, spec, context.say),
        call: (args, options) => home.run(domain, service, spec, args, options),
      });
    });
    if (missing.length === settings.services.length)
      throw new ServiceError(problem('service.setup.noAction', { platform, names: missing.join(', ') }));
  }
  if (settings.services.length === 0)
    // Nothing asked yet: `GET /api/` ("API running.") says at start whether the address and token work,
    // instead of a green "running" until the first question fails with a 401.
    await context.http.sendJson(
      { method: 'GET', url: joinUrl(settings.baseUrl, '/api/'), headers: auth },
      { timeoutMs: context.timeoutMs },
    );
  if (settings.states) {
    tools.push({
      tool: {
        name: 'get_state',
        description: context.say('voice.service.haStateDescription'),
        inputSchema: {
          type: 'object',
          properties: {
            entity: { type: 'string', description: context.say('voice.service.haStateEntity') },
          },
          required: ['entity'],
        },
      },
      call: async (args, options) => {
        const found = await home.find(spoken(args.entity), options);
        return textAnswer(home.stateLine(found));
      },
    });
  }
  return tools;
}

/** Every action `GET /api/services` describes, by `domain.service`. */
function knownActions(described: unknown): Map<string, Node> {
  const known = new Map<string, Node>();
  for (const entry of Array.isArray(described) ? described : []) {
    if (!isRecord(entry) || typeof entry.domain !== 'string' || !isRecord(entry.services)) continue;
    for (const [service, spec] of Object.entries(entry.services)) if (isRecord(spec)) known.set(`${entry.domain}.${service}`, spec);
  }
  return known;
}

function actionTool(domain: string, service: string, spec: Node, say: ServiceContext['say']): Tool {
  // Keyed by Home Assistant's field names: no prototype.
  const properties = nameRecord<object>();
  const required: string[] = [];
  if (spec.target !== undefined && spec.target !== null)
    properties.entity_id = {
      type: 'string',
      description: say('voice.service.haTarget', { domain }),
    };
  const add = (name: string, field: Node) => {
    if (name === 'entity_id' || Object.keys(properties).length >= MAX_FIELDS) return;
    properties[name] = fieldSchema(field);
    if (field.required === true) required.push(name);
  };
  for (const [name, field] of Object.entries(isRecord(spec.fields) ? spec.fields : {})) {
    if (!isRecord(field)) continue;
    // A section (`advanced_fields: {collapsed, fields: {…}}`) holds fields of its own: served flat.
    if (isRecord(field.fields) && field.selector === undefined) {
      for (const [inner, sub] of Object.entries(field.fields)) if (isRecord(sub)) add(inner, sub);
    } else add(name, field);
  }
  const said = [spec.name, spec.description].filter((s) => typeof s === 'string' && s).join(': ');
  return {
    name: `${domain}_${service}`.slice(0, 64),
    description: said || `Calls ${domain}.${service} in Home Assistant.`,
    inputSchema: { type: 'object', properties: { ...properties }, ...(required.length > 0 ? { required } : {}) },
  };
}

/** A field as JSON Schema: its selector's type and bounds, its name and description, its default. */
function fieldSchema(field: Node): Node {
  const description = [field.name, field.description].filter((s) => typeof s === 'string' && s).join(': ');
  return {
    ...selectorSchema(isRecord(field.selector) ? field.selector : {}),
    ...(description ? { description } : {}),
    ...(field.default !== undefined && typeof field.default !== 'object' ? { default: field.default } : {}),
  };
}

/** One Home Assistant: its entities read and its actions run, what they did said in the voice language. */
class Home {
  constructor(
    private readonly baseUrl: string,
    private readonly auth: Record<string, string>,
    private readonly context: ServiceContext,
  ) {}

  async run(domain: string, service: string, spec: Node, args: Record<string, unknown>, options: RequestOptions) {
    const data = { ...args };
    // Home Assistant answers an action on a device that does not exist with 200 and no change (it
    // only logs it): the devices named are looked up first, by id or by name, and one not found is said.
    const targets: Node[] = [];
    if (spec.target !== undefined && spec.target !== null) {
      const named = data.entity_id;
      const ids = typeof named === 'string' ? [named] : Array.isArray(named) ? named.map(spoken) : [];
      const resolved: string[] = [];
      for (const id of ids) {
        if (id === 'all') resolved.push(id);
        else {
          const found = await this.find(id, options);
          targets.push(found);
          resolved.push(spoken(found.entity_id));
        }
      }
      if (ids.length > 0) data.entity_id = typeof named === 'string' ? resolved[0] : resolved;
    }
    // An action that answers data (a forecast, a to-do list) is asked for it: one that only answers
    // refuses a call without `?return_response`.
    const responds = isRecord(spec.response);
    const path = `/api/services/${domain}/${service}${responds ? '?return_response' : ''}`;
    const json = await this.context.http.sendJson(
      { method: 'POST', url: joinUrl(this.baseUrl, path), headers: this.auth, body: data },
      options,
    );
    if (responds && isRecord(json)) {
      const answered = serviceResponse(json.service_response);
      if (answered !== undefined) return textAnswer(answered);
    }
    const changed = (Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.changed_states) ? json.changed_states : []).filter(
      isRecord,
    );
    if (changed.length > 0) return textAnswer(this.context.say('voice.service.doneStates', { states: this.stateLines(changed) }));
    if (targets.length > 0) return textAnswer(this.context.say('voice.service.unchanged', { states: this.stateLines(targets) }));
    return textAnswer(this.context.say('voice.service.done'));
  }

  /**
   * The entity meant: its id (`GET /api/states/<id>`), else the one whose name is what was said (in any
   * case, or the only one containing it). None is said as such, before anything is asked of it.
   */
  async find(asked: string, options: RequestOptions): Promise<Node> {
    const wanted = asked.trim();
    if (/^[a-z0-9_]+\.[a-z0-9_]+$/.test(wanted)) {
      const answer = await this.context.http.raw(
        { method: 'GET', url: joinUrl(this.baseUrl, `/api/states/${encodeURIComponent(wanted)}`), headers: this.auth },
        options,
      );
      if (answer.status === 200 && isRecord(answer.json)) return answer.json;
      // A refused token is said as any refusal is; only "Entity not found." goes on to the names.
      if (answer.status !== 404) throw new ServiceError(httpProblem(this.context.http.platform, answer));
    }
    const states = await this.context.http.sendJson(
      { method: 'GET', url: joinUrl(this.baseUrl, '/api/states'), headers: this.auth },
      options,
    );
    const list = Array.isArray(states) ? states.filter(isRecord) : [];
    const lower = wanted.toLowerCase();
    const name = (s: Node) => (isRecord(s.attributes) ? spoken(s.attributes.friendly_name).toLowerCase() : '');
    const containing = lower === '' ? [] : list.filter((s) => name(s).includes(lower));
    const found =
      list.find((s) => spoken(s.entity_id).toLowerCase() === lower) ??
      list.find((s) => name(s) === lower) ??
      (containing.length === 1 ? containing[0] : undefined);
    if (!found) throw new ServiceError(problem('service.noEntity', { platform: this.context.http.platform, entity: wanted.slice(0, 100) }));
    return found;
  }

  /** `Kitchen light: on`, `Living room temperature: 21.5 °C` (with the colon of the voice language). */
  stateLine(state: Node): string {
    const attributes = isRecord(state.attributes) ? state.attributes : {};
    const name = typeof attributes.friendly_name === 'string' ? attributes.friendly_name : spoken(state.entity_id);
    const unit = typeof attributes.unit_of_measurement === 'string' ? ` ${attributes.unit_of_measurement}` : '';
    return `${name}${this.context.language() === 'zh-CN' ? '：' : ': '}${spoken(state.state)}${unit}`;
  }

  private stateLines(states: Node[]): string {
    const said = states.slice(0, MAX_STATES_SAID).map((s) => this.stateLine(s));
    const text = said.join(this.context.language() === 'zh-CN' ? '；' : '; ');
    const more = states.length - said.length;
    return more > 0 ? this.context.say('voice.service.moreStates', { states: text, count: more }) : text;
  }
}

/** What an action answered: one entity's answer as it is (`{forecast: […]}`), several keyed by entity. */
function serviceResponse(response: unknown): string | undefined {
  if (!isRecord(response) || Object.keys(response).length === 0) return undefined;
  const keys = Object.keys(response);
  const one = keys.length === 1 && /^[a-z0-9_]+\.[a-z0-9_]+$/.test(keys[0] as string) ? own(response, keys[0] as string) : response;
  return spoken(one);
}
