/** The one task queue the worker polls and the API starts workflows on. */
export const TASK_QUEUE = process.env.TEMPORAL_TASK_QUEUE ?? 'payments';
