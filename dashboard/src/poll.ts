/** Lists poll every 5 s (the bound) while the tab is visible. */
export const POLL_MS = 5_000;
