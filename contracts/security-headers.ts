/**
 * Security headers of the SPA. CloudFront's response-headers policy and local mode's web
 * server are both built from this module, so local mode behaves as the deployed site does;
 * only the allowed addresses differ.
 */
export interface CspSources {
  /** Cognito, AppSync and the function URLs. */
  readonly connectSrc: readonly string[];
  /** Where embedded dashboards come from (QuickSight). */
  readonly frameSrc: readonly string[];
}

export function contentSecurityPolicy({ connectSrc, frameSrc }: CspSources): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The toast library injects its stylesheet at run time and components set style
    // attributes; no script may be inlined.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${connectSrc.join(' ')}`.trim(),
    `frame-src ${frameSrc.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const HSTS_MAX_AGE_SECONDS = 63_072_000; // two years

/**
 * The referrer policy keeps the origin on cross-origin requests: QuickSight checks the
 * embedding page's origin against AllowedDomains.
 */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/**
 * Powerful features the portal never uses, switched off for the page and every frame in it.
 * Only names Chromium recognises: it logs any other (such as `bluetooth`, which it does not
 * take from this header) as an error on every page. Web Bluetooth asks the user in a chooser
 * of its own in any case.
 */
const DISABLED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

/**
 * Permissions-Policy: the features above off everywhere. Fullscreen stays available to the
 * page and to the dashboard frame (its iframe asks for it with `allow="fullscreen"`); a
 * header allowlist without the frame's origin would withhold it from the frame despite that.
 */
function permissionsPolicy({ frameSrc }: Pick<CspSources, 'frameSrc'>): string {
  const fullscreen = ['self', ...frameSrc.map((source) => `"${source}"`)].join(' ');
  return [...DISABLED_FEATURES.map((feature) => `${feature}=()`), `fullscreen=(${fullscreen})`].join(', ');
}

/**
 * The portal's window shares no browsing context group with cross-origin windows, so a page
 * it opens (or that opens it) cannot reach it through `window.opener`.
 */
const CROSS_ORIGIN_OPENER_POLICY = 'same-origin';

/** Headers outside CloudFront's built-in security headers: CloudFront sends them as custom headers. */
export function customSecurityHeaders(sources: CspSources): Record<string, string> {
  return {
    'Permissions-Policy': permissionsPolicy(sources),
    'Cross-Origin-Opener-Policy': CROSS_ORIGIN_OPENER_POLICY,
  };
}

export function securityHeaders(sources: CspSources): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(sources),
    'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': REFERRER_POLICY,
    ...customSecurityHeaders(sources),
  };
}
