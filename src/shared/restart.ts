/**
 * The `cron` of the scheduled run a local backend makes each time it starts (tools/lib/backend.ts):
 * the whole runtime was down, so whatever the last run left pending is carried out at once.
 * Cloudflare's cron triggers never send it.
 */
export const RESTART_CRON = 'restart';
