// The benchmark's baseline: a bare Next.js app that renders the same rows as the building page
// from a static array, on the project's own `next` and `react`. This file keeps Next.js from
// taking the project's next.config.js (it looks upwards for one); `npm run bench` builds it with
// webpack, since Turbopack would also take the project's instrumentation and proxy.
export default {};
