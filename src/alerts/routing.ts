import type { Route } from './config/model.js';
import type { LabelSet } from './matchers/matcher.js';

/**
 * Alertmanager's route.Match: the node matches if its matchers do; then its children are tried in
 * order, each match collected, stopping after a matching child unless it has `continue: true`;
 * a node none of whose children matched is itself the match. Leaves in depth-first order.
 */
export function matchRoutes(route: Route, labels: LabelSet): Route[] {
  if (!route.matchers.every((m) => m.matches(labels))) return [];
  const matched: Route[] = [];
  for (const child of route.routes) {
    const found = matchRoutes(child, labels);
    matched.push(...found);
    if (found.length > 0 && !child.continue) break;
  }
  return matched.length > 0 ? matched : [route];
}

/** The labels an alert is grouped by on `route`: its labels restricted to group_by, or all of them. */
export function groupLabels(route: Route, labels: LabelSet): Record<string, string> {
  if (route.groupByAll) return { ...labels };
  const grouped: Record<string, string> = {};
  for (const name of route.groupBy) {
    const value = labels[name];
    if (value !== undefined) grouped[name] = value;
  }
  return grouped;
}

/** Where an alert goes: the leaves it routes to, their receivers, and its group on each. */
export interface AlertRoutes {
  routes: readonly Route[];
  receivers: readonly string[];
  /** Per route, in the same order: the group labels and the group's key (route and labels). */
  groups: ReadonlyArray<{ labels: Record<string, string>; key: string }>;
}

/**
 * Each alert's routes, receivers and groups, worked out once per configuration: an alert's
 * labels never change under its fingerprint, so only a new configuration or a new alert asks
 * the route tree again.
 */
export class RouteCache {
  private readonly byFingerprint = new Map<string, AlertRoutes>();
  private root: Route | undefined;

  constructor(private readonly groupKey: (route: Route, labels: Record<string, string>) => string) {}

  /** Where `labels` go under `root`. */
  of(root: Route, fingerprint: string, labels: LabelSet): AlertRoutes {
    if (root !== this.root) {
      this.byFingerprint.clear();
      this.root = root;
    }
    let found = this.byFingerprint.get(fingerprint);
    if (found === undefined) {
      const routes = matchRoutes(root, labels);
      const groups = routes.map((route) => {
        const grouped = groupLabels(route, labels);
        return { labels: grouped, key: this.groupKey(route, grouped) };
      });
      this.byFingerprint.set(fingerprint, (found = { routes, receivers: routes.map((route) => route.receiver), groups }));
    }
    return found;
  }

  forget(fingerprint: string): void {
    this.byFingerprint.delete(fingerprint);
  }
}
