/** The dependency graph of a synthesized template: what CloudFormation orders resources by. */
export type TemplateResources = { Resources: Record<string, { DependsOn?: string | string[]; Properties?: unknown }> };

/** Resources each resource refers to (Ref, GetAtt, Sub, DependsOn). */
export function dependencies(template: TemplateResources): Map<string, Set<string>> {
  const ids = new Set(Object.keys(template.Resources));
  const graph = new Map<string, Set<string>>();
  const visit = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, into));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'Ref' && typeof value === 'string' && ids.has(value)) into.add(value);
      else if (key === 'Fn::GetAtt' && Array.isArray(value) && ids.has(String(value[0]))) into.add(String(value[0]));
      else if (key === 'Fn::Sub') {
        const text = Array.isArray(value) ? String(value[0]) : String(value);
        for (const [, name] of text.matchAll(/\$\{([A-Za-z0-9]+)/g)) if (name && ids.has(name)) into.add(name);
        visit(value, into);
      } else visit(value, into);
    }
  };
  for (const [id, resource] of Object.entries(template.Resources)) {
    const refs = new Set<string>([resource.DependsOn ?? []].flat());
    visit(resource.Properties, refs);
    graph.set(id, refs);
  }
  return graph;
}

/** A cycle of the graph as the logical ids along it (the first one repeated at the end), if there is one. */
export function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const walk = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const next of graph.get(id) ?? []) {
      const cycle = walk(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of graph.keys()) {
    const cycle = walk(id);
    if (cycle) return cycle;
  }
  return undefined;
}
