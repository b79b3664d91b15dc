import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { problem } from '../../../shared/problem';
import type { HomeAssistantSettingsSchema } from '../../../shared/settings';
import { isRecord } from '../../../shared/is-record';
import { joinUrl, speakable, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { textAnswer, type ServiceContext, type ServiceTool } from './service-tools';
import { nameRecord } from '../../../shared/own';

type HomeAssistantSettings = z.output<typeof HomeAssistantSettingsSchema>;

/** States a spoken answer lists at most (a service that changed a whole house). */
const MAX_STATES_SAID = 10;

/**
 * Home Assistant's REST API (developers.home-assistant.io, "REST API"): every request with
 * `Authorization: Bearer <long-lived token>`; `GET /api/services` describes each domain's services
 * and their fields, `POST /api/services/<domain>/<service>` calls one with its data and answers the
 * states it changed, `GET /api/states` lists the entities, `GET /api/states/<entity_id>` one of them.
 */
export async function homeAssistantTools(settings: HomeAssistantSettings, context: ServiceContext): Promise<ServiceTool[]> {
  const auth = { authorization: `Bearer ${settings.token}` };
  const platform = context.http.platform;
  const tools: ServiceTool[] = [];
  if (settings.services.length > 0) {
    const described = await context.http.sendJson(
      { method: 'GET', url: joinUrl(settings.baseUrl, '/api/services'), headers: auth },
      { timeoutMs: context.timeoutMs },
    );
    const missing: string[] = [];
    for (const name of settings.services) {
      const [domain, service] = name.split('.') as [string, string];
      const spec = serviceSpec(described, domain, service);
      if (!spec) {
        missing.push(name);
        continue;
      }
      tools.push({
        tool: serviceTool(domain, service, spec),
        call: async (args, options) => {
          const json = await context.http.sendJson(
            { method: 'POST', url: joinUrl(settings.baseUrl, `/api/services/${domain}/${service}`), headers: auth, body: args },
            options,
          );
          return textAnswer(changedStates(json));
        },
      });
    }
    if (missing.length > 0) throw new ServiceError(problem('service.setup.noAction', { platform, names: missing.join(', ') }));
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
        description: 'Tells the current state of a device or sensor in the home (on/off, temperature…), by its name or entity id.',
        inputSchema: {
          type: 'object',
          properties: {
            entity: { type: 'string', description: 'The name of the device or sensor, or its entity id (sensor.living_room)' },
          },
          required: ['entity'],
        },
      },
      call: async (args, options) => {
        const states = await context.http.sendJson(
          { method: 'GET', url: joinUrl(settings.baseUrl, '/api/states'), headers: auth },
          options,
        );
        return textAnswer(stateOf(states, spoken(args.entity), platform));
      },
    });
  }
  return tools;
}

function serviceSpec(described: unknown, domain: string, service: string): Record<string, unknown> | undefined {
  if (!Array.isArray(described)) return undefined;
  const entry = described.find((d) => isRecord(d) && d.domain === domain);
  const services = isRecord(entry) && isRecord(entry.services) ? entry.services : undefined;
  const spec = services && Object.prototype.hasOwnProperty.call(services, service) ? services[service] : undefined;
  return isRecord(spec) ? spec : undefined;
}

/** A field's type from its selector (number, boolean, select…); text otherwise. */
function fieldSchema(field: Record<string, unknown>): Record<string, unknown> {
  const selector = isRecord(field.selector) ? field.selector : {};
  const description = [field.name, field.description].filter((s) => typeof s === 'string' && s).join(': ');
  const out: Record<string, unknown> = { type: 'string' };
  if ('number' in selector || 'color_temp' in selector) out.type = 'number';
  else if ('boolean' in selector) out.type = 'boolean';
  else if (isRecord(selector.select) && Array.isArray(selector.select.options)) {
    const options = selector.select.options.map((o) => (isRecord(o) ? o.value : o)).filter((o): o is string => typeof o === 'string');
    if (options.length > 0) out.enum = options;
  } else if ('object' in selector) out.type = 'object';
  if (description) out.description = description;
  return out;
}

function serviceTool(domain: string, service: string, spec: Record<string, unknown>): Tool {
  // Keyed by Home Assistant's field names: no prototype.
  const properties = nameRecord<object>();
  const required: string[] = [];
  if (spec.target !== undefined)
    properties.entity_id = { type: 'string', description: `The entity to act on, for example ${domain}.living_room` };
  const fields = isRecord(spec.fields) ? spec.fields : {};
  for (const [name, field] of Object.entries(fields).slice(0, 50)) {
    if (!isRecord(field) || name === 'entity_id') continue;
    // Advanced fields sit in a section of their own (`fields: { advanced_fields: { fields: {…} } }`): served flat.
    if (isRecord(field.fields)) {
      for (const [inner, sub] of Object.entries(field.fields).slice(0, 50)) if (isRecord(sub)) properties[inner] = fieldSchema(sub);
      continue;
    }
    properties[name] = fieldSchema(field);
    if (field.required === true) required.push(name);
  }
  const said = [spec.name, spec.description].filter((s) => typeof s === 'string' && s).join(': ');
  return {
    name: `${domain}_${service}`.slice(0, 64),
    description: said || `Calls ${domain}.${service} in Home Assistant.`,
    inputSchema: { type: 'object', properties: { ...properties }, ...(required.length > 0 ? { required } : {}) },
  };
}

const stateLine = (state: Record<string, unknown>): string => {
  const attributes = isRecord(state.attributes) ? state.attributes : {};
  const name = typeof attributes.friendly_name === 'string' ? attributes.friendly_name : spoken(state.entity_id);
  const unit = typeof attributes.unit_of_measurement === 'string' ? ` ${attributes.unit_of_measurement}` : '';
  return `${name}: ${spoken(state.state)}${unit}`;
};

/** A service call's answer (the states it changed) in a few words. */
function changedStates(json: unknown): string {
  const states = Array.isArray(json) ? json.filter(isRecord) : [];
  if (states.length === 0) return 'Done.';
  const said = states.slice(0, MAX_STATES_SAID).map(stateLine);
  const more = states.length - said.length;
  return `Done. ${said.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** The state of the entity named (its id, or its friendly name in any case); none is the platform's answer, said as such. */
function stateOf(states: unknown, asked: string, platform: string): string {
  const list = Array.isArray(states) ? states.filter(isRecord) : [];
  const wanted = asked.trim().toLowerCase();
  const found =
    list.find((s) => spoken(s.entity_id).toLowerCase() === wanted) ??
    list.find((s) => isRecord(s.attributes) && spoken(s.attributes.friendly_name).toLowerCase() === wanted) ??
    list.find((s) => isRecord(s.attributes) && wanted !== '' && spoken(s.attributes.friendly_name).toLowerCase().includes(wanted));
  if (!found)
    throw new ServiceError(
      problem('service.refused', { platform, code: 404, message: `no device or sensor is called "${speakable(asked)}"` }),
    );
  return stateLine(found);
}
