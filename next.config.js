/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly by file URL and argon2 is a native addon: both must stay
  // plain Node requires instead of being bundled.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2'],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
