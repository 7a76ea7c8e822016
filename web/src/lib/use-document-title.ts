import { useEffect } from 'react';
import { useConfig } from './config-context.tsx';

/** Which portal a page belongs to: the admin portal's titles end in "<product> Admin". */
export type Portal = 'user' | 'admin';

/** "Sign in · TVIQ", "User Management · TVIQ Admin". */
export const documentTitle = (page: string, productName: string, portal: Portal = 'user') =>
  `${page} · ${portal === 'admin' ? `${productName} Admin` : productName}`;

/**
 * Sets the browser tab's title for the page shown, so that tabs, history and screen readers
 * name each route. Nothing happens while `page` is undefined (a parent that names only some
 * of its routes).
 */
export function useDocumentTitle(page: string | undefined, portal: Portal = 'user'): void {
  const { productName } = useConfig();
  useEffect(() => {
    if (page !== undefined) document.title = documentTitle(page, productName, portal);
  }, [page, portal, productName]);
}
