/**
 * Typed per-process state instead of one string-keyed `Map<string, unknown>`: each use declares
 * its own slot with its value type (`new KeyedCache<VectorMatrix>('search.vectors')`), and the app
 * context carries only the `ContextState` the slots hang their values on. No casts, no key strings
 * shared between engines; a closed context's values go with it (WeakMap).
 */
export class ContextState {}

/** One value per context (settings handed in by the shell, a loaded table). */
export class ContextValue<V> {
  private readonly values = new WeakMap<ContextState, V>();
  constructor(readonly name: string) {}
  get(state: ContextState): V | undefined {
    return this.values.get(state);
  }
  set(state: ContextState, value: V): void {
    this.values.set(state, value);
  }
}

/** Values by key per context (a vector matrix per corpus, a home file per path). */
export class KeyedCache<V> {
  private readonly maps = new WeakMap<ContextState, Map<string, V>>();
  constructor(readonly name: string) {}
  /** This context's entries. */
  in(state: ContextState): Map<string, V> {
    let map = this.maps.get(state);
    if (!map) {
      map = new Map();
      this.maps.set(state, map);
    }
    return map;
  }
}
