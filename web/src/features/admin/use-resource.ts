import { useCallback, useRef } from 'react';
import { useResource, type Resource } from '#web/lib/use-resource.ts';

/**
 * A user list whose `reloadFull()` (the page's Refresh) lists every account in Cognito, so
 * accounts changed in the Cognito console appear; every other load reads the portal's copy of
 * the directory. `list` must be stable (useCallback).
 */
export function useUserListing<T>(list: (fullListing: boolean) => Promise<T>): Resource<T> & { reloadFull(): void } {
  const fullListing = useRef(false);
  const load = useCallback(() => {
    const full = fullListing.current;
    fullListing.current = false;
    return list(full);
  }, [list]);
  const resource = useResource(load);
  const { reload } = resource;
  const reloadFull = useCallback(() => {
    fullListing.current = true;
    reload();
  }, [reload]);
  return { ...resource, reloadFull };
}
