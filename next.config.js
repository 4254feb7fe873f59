// Every powerful feature off: Setpoint uses none of them, so neither may anything it embeds
// or anything injected into it. Only names Chromium knows, so it logs no warning for any.
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly by file URL and argon2 is a native addon: both must stay
  // plain Node requires instead of being bundled.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2'],
  poweredByHeader: false,
  // A second build (a parallel e2e run) can go to its own folder: NEXT_DIST_DIR=.next-e2e.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  devIndicators: false,
  // proxy.ts answers a larger body with 413 before Next reads it (BODY_SIZE_LIMIT_BYTES).
  experimental: { serverActions: { bodySizeLimit: '1mb' } },
  // Kept out of the dev server's log: the OAuth callback's URL carries an authorization code and
  // an invitation's its token; a server action's arguments (which it would print) carry the form's
  // previous state, such as a new webhook's signing secret or an invitation link.
  logging: {
    serverFunctions: false,
    incomingRequests: { ignore: [/\/api\/connect\/callback/, /\/invite\//] },
  },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'X-Frame-Options', value: 'DENY' },
          // An internal console: kept out of search engines even where a link to it is public
          // (public/robots.txt asks the same of crawlers that read it).
          { key: 'X-Robots-Tag', value: 'noindex, nofollow' },
          // No other site's window keeps a handle on ours (it opens no popups of its own).
          { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
          { key: 'Permissions-Policy', value: PERMISSIONS_POLICY },
        ],
      },
      {
        // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` on
        // same-origin form posts, which the Origin checks must be able to trust. The OAuth
        // callback sets its own no-referrer, so the code in its URL goes nowhere.
        source: '/((?!api/connect/callback).*)',
        headers: [{ key: 'Referrer-Policy', value: 'same-origin' }],
      },
    ];
  },
};

export default nextConfig;
