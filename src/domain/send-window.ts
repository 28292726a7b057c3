/** At most `max` sends in any `windowMs`: what keeps code requests from pumping SMS or feeding a brute force. */
export interface SendWindow {
  max: number;
  windowMs: number;
}

/** The sends still inside the window at `now`, oldest first (what a row keeps of its sends). */
export function sendsInWindow(sentAt: readonly Date[], now: Date, window: SendWindow): Date[] {
  const since = now.getTime() - window.windowMs;
  return sentAt.filter((at) => at.getTime() > since).sort((a, b) => a.getTime() - b.getTime());
}

/** Whole seconds until another send is allowed (the oldest counted send leaves the window); 0 when one is allowed now. */
export function sendRetryAfterSeconds(sentAt: readonly Date[], now: Date, window: SendWindow): number {
  const recent = sendsInWindow(sentAt, now, window);
  if (recent.length < window.max) return 0;
  const oldest = recent[recent.length - window.max]!;
  return Math.max(1, Math.ceil((oldest.getTime() + window.windowMs - now.getTime()) / 1000));
}
