import type { z } from 'zod';
import { GridError } from '../common/errors';
import { registerOperations, type AnyOperation, type Operation } from '../common/operation';

/**
 * The one API table. Every operation the product offers is declared in its engine's api.ts and
 * registered here; adapters (IPC, HTTP, CLI, MCP) only ever go through it. Nothing below this
 * folder imports it (checked by .dependency-cruiser.cjs).
 *
 * Engines load on first use, by namespace (the part of the name before the dot): `gridcode info`
 * loads the app operations only, not the PDF importer, the device grammar or the chat agent —
 * that is most of the CLI's cold start. A namespace's modules are registered together
 * (`registerOperations` refuses a name registered twice), and every name must sit in its
 * namespace, so two namespaces can never hold the same name. `loadApiTable()` loads them all
 * (the MCP server, tests) and runs the same checks.
 */
const namespaces = {
  app: async () => registerNamespace('app', (await import('../app/api')).appOperations),
  models: async () => registerNamespace('models', (await import('../embed/api')).modelOperations),
  regulations: async () => {
    const [engine, structure] = await Promise.all([import('../regulations/api'), import('../regulations/structure-api')]);
    return registerNamespace('regulations', engine.regulationOperations, structure.structureOperations);
  },
  editions: async () => registerNamespace('editions', (await import('../regulations/editions-api')).editionOperations),
  search: async () => registerNamespace('search', (await import('../regulations/search-api')).searchOperations),
  devices: async () => registerNamespace('devices', (await import('../devices/api')).deviceOperations),
  collections: async () => registerNamespace('collections', (await import('../collections/api')).collectionOperations),
  llm: async () => registerNamespace('llm', (await import('../llm/api')).llmOperations),
};

type Namespaces = typeof namespaces;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type ApiTable = UnionToIntersection<Awaited<ReturnType<Namespaces[keyof Namespaces]>>>;
export type ApiName = keyof ApiTable & string;
export type ApiInput<N extends ApiName> = z.input<ApiTable[N]['input']>;
export type ApiOutput<N extends ApiName> = z.output<ApiTable[N]['output']>;

type Namespace = keyof Namespaces;
/** registerOperations for one namespace: besides duplicates, a name outside `namespace` fails. */
export function registerNamespace<const T extends readonly Record<string, AnyOperation>[]>(namespace: string, ...groups: T): ReturnType<typeof registerOperations<T>> {
  const table = registerOperations(...groups);
  for (const name of Object.keys(table as object)) {
    if (!name.startsWith(`${namespace}.`)) throw new GridError('INTERNAL', `操作 ${name} 不在其命名空间 ${namespace} 中`);
  }
  return table;
}

const loaded = new Map<Namespace, Promise<Record<string, AnyOperation>>>();

function isNamespace(name: string): name is Namespace {
  return Object.hasOwn(namespaces, name);
}

/** A namespace's operations, loaded once. */
function loadNamespace(namespace: Namespace): Promise<Record<string, AnyOperation>> {
  let group = loaded.get(namespace);
  if (!group) {
    group = namespaces[namespace]() as Promise<Record<string, AnyOperation>>;
    loaded.set(namespace, group);
  }
  return group;
}

/** The operation registered under `name`, loading its engine; unknown names fail with NOT_FOUND. */
export async function findOperation(name: string): Promise<Operation> {
  const namespace = name.slice(0, name.indexOf('.'));
  const ops = isNamespace(namespace) ? await loadNamespace(namespace) : undefined;
  if (!ops || !Object.hasOwn(ops, name)) throw new GridError('NOT_FOUND', `未知操作: ${name}`);
  return ops[name];
}

/** Every operation, in table order (namespaces as listed above). */
export async function loadApiTable(): Promise<Readonly<Record<ApiName, Operation>>> {
  const groups = await Promise.all((Object.keys(namespaces) as Namespace[]).map(loadNamespace));
  return registerOperations(...groups) as Record<ApiName, Operation>;
}
