import { receiveLeaseWebhook } from '@/lib/api/lease-inbound';

export const POST = receiveLeaseWebhook;
