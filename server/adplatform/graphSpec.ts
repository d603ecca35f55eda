/**
 * Meta's published Graph API node specs (specs/, copied unchanged from the Business SDK's codegen):
 * which fields each node has, their types, and the enums. The simulator answers by them and the
 * spec test holds the client's field lists and the simulator's answers against them.
 */
import { readFileSync } from 'node:fs';

export const SPEC_NODES = [
  'Ad',
  'AdSet',
  'Campaign',
  'AdAccount',
  'AdsInsights',
  'AdsActionStats',
  'Lead',
  'LeadgenForm',
  'UserLeadGenFieldData',
] as const;
export type SpecNode = (typeof SPEC_NODES)[number];

interface SpecParam {
  name: string;
  type: string;
}

interface SpecApi {
  method: string;
  endpoint?: string;
  name?: string;
  params: SpecParam[];
}

interface NodeSpec {
  fields: SpecParam[];
  apis: SpecApi[];
}

const readJson = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`./specs/${file}`, import.meta.url), 'utf8')) as T;

const nodeSpecs = new Map<string, NodeSpec>();
let enums: Map<string, readonly string[]> | undefined;

function nodeSpec(node: string): NodeSpec | undefined {
  if (!(SPEC_NODES as readonly string[]).includes(node)) return undefined;
  let spec = nodeSpecs.get(node);
  if (!spec) {
    spec = readJson<NodeSpec>(`${node}.json`);
    nodeSpecs.set(node, spec);
  }
  return spec;
}

/** Field name → spec type (e.g. 'string', 'datetime', 'Ad_effective_status', 'list<AdsActionStats>'). */
export function specFields(node: SpecNode): ReadonlyMap<string, string> {
  return new Map(nodeSpec(node)!.fields.map((f) => [f.name, f.type]));
}

/** The values of a spec enum, or undefined when the name is not an enum. */
export function enumValues(name: string): readonly string[] | undefined {
  if (!enums) {
    const list = readJson<{ name: string; values: string[] }[]>('enum_types.json');
    enums = new Map(list.map((e) => [e.name, e.values]));
  }
  return enums.get(name);
}

/** The type of a parameter of an edge (`GET /act_x/insights` → node AdAccount, endpoint insights). */
export function edgeParamType(node: SpecNode, method: string, endpoint: string, param: string): string | undefined {
  const api = nodeSpec(node)!.apis.find((a) => a.method === method && (a.endpoint ?? a.name) === endpoint);
  return api?.params.find((p) => p.name === param)?.type;
}

/**
 * The parameters the spec lists for an edge or node call (`GET /act_x/ads` → AdAccount, GET, ads;
 * a node's own read and update are '#get' and '#update'), or undefined when the spec has no such call.
 */
export function edgeParams(node: SpecNode, method: string, endpoint: string): readonly string[] | undefined {
  const api = nodeSpec(node)!.apis.find((a) => a.method === method && (a.endpoint ?? a.name) === endpoint);
  return api?.params.map((p) => p.name);
}

/** `2026-03-02T15:00:00+0000`: how Graph writes a datetime. */
export const GRAPH_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/;

/**
 * Why a JSON value does not fit a spec type, or undefined when it does. Node and struct types that
 * have a spec here (AdsActionStats) are checked field by field; others only need to be objects.
 */
export function specMismatch(type: string, value: unknown): string | undefined {
  const list = /^list<(.+)>$/.exec(type);
  if (list) {
    if (!Array.isArray(value)) return `expected a list (${type})`;
    for (const [index, item] of value.entries()) {
      const problem = specMismatch(list[1]!, item);
      if (problem) return `[${index}] ${problem}`;
    }
    return undefined;
  }
  if (type.startsWith('map')) return isObject(value) ? undefined : `expected an object (${type})`;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? undefined : `expected a string`;
    case 'numeric string':
      return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
        ? undefined
        : 'expected a numeric string';
    case 'int':
      return Number.isInteger(value) ? undefined : 'expected an integer';
    case 'unsigned int':
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : 'expected an unsigned integer';
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'expected a number';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'expected a boolean';
    case 'datetime':
      return typeof value === 'string' && GRAPH_DATETIME.test(value)
        ? undefined
        : `expected a datetime like 2026-03-02T15:00:00+0000, got ${JSON.stringify(value)}`;
    case 'Object':
      return value !== null && value !== undefined ? undefined : 'expected a value';
  }
  const values = enumValues(type);
  if (values) {
    return typeof value === 'string' && values.includes(value)
      ? undefined
      : `${JSON.stringify(value)} is not one of ${type} {${values.join(', ')}}`;
  }
  if (!isObject(value)) return `expected an object (${type})`;
  if (nodeSpec(type)) return objectMismatch(type as SpecNode, value);
  return undefined;
}

/** Every key of an object is a field of the node, with a value of that field's type. */
export function objectMismatch(node: SpecNode, object: Record<string, unknown>): string | undefined {
  const fields = specFields(node);
  for (const [key, value] of Object.entries(object)) {
    const type = fields.get(key);
    if (!type) return `${key} is not a field of ${node}`;
    const problem = specMismatch(type, value);
    if (problem) return `${node}.${key}: ${problem}`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
