import { PageSkeleton } from '@/components/ui/page-skeleton';

// Pages with forms meant to work without JavaScript have no loading boundary: without
// JavaScript its fallback would stay on screen. This page has none of those.
export default function Loading() {
  return <PageSkeleton label="Loading…" />;
}
