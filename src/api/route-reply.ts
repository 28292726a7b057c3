/** What a route answers: its status and body (the idempotency store keeps it to answer a repeat). */
export interface Reply {
  status: number;
  body?: unknown;
}
