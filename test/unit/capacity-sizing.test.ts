import { sizingTable, tier, type Measured } from '../proof/drills/capacity-sizing';

// Figures of the shape `npm run drill -- capacity` measures (round numbers, so the rules can be checked by hand).
const measured: Measured = {
  payoutsPerSecond: 8,
  cpuMsPerPayout: { api: 20, worker: 60, temporal: 50, postgres: 50, haproxy: 1 },
  sqlStatementsPerPayout: 20,
  serviceCommitsPerPayout: 3,
  databaseCommitsPerPayout: 30,
  historyEventsPerPayout: 19,
  workflowTasksPerPayout: 3,
  historyBytesPerPayout: 8 * 1024,
  paymentsDbBytesPerPayout: 10 * 1024,
  temporalDbBytesPerPayout: 40 * 1024,
  walBytesPerPayout: 100 * 1024,
  peakConnections: { api: 4, worker: 6, temporal: 30 },
  historyShards: 4,
};

describe('capacity sizing from measured figures', () => {
  it("keeps two of everything at today's volume and scales processes with CPU per payout at 60 % of a core", () => {
    const today = tier(measured, 'today', 8, 800);
    expect(today).toMatchObject({ apiProcesses: 2, workerProcesses: 2, temporalNodes: 2 });
    // 800/s × 60 ms = 48 cores of work; at 60 % that is 80 processes.
    const hundred = tier(measured, '100×', 800, 800);
    expect(hundred.workerProcesses).toBe(80);
    expect(hundred.apiProcesses).toBe(27); // 800 × 20 / 1000 / 0.6 = 26.7
    expect(hundred.temporalCores).toBeCloseTo(66.7, 1);
    expect(hundred.temporalNodes).toBe(17); // 4 cores a node
    expect(hundred.postgresCores).toBeCloseTo(66.7, 1);
    expect(hundred.commitsPerSecond).toBe(24_000);
  });

  it('sizes history shards once, for the largest volume, from the per-shard rate that worked', () => {
    // 8/s over 4 shards is 2/s per shard; 800/s needs 400 such shards: 512, the next power of two.
    expect(tier(measured, 'today', 8, 800).historyShards).toBe(512);
    expect(tier(measured, '100×', 800, 800).historyShards).toBe(512);
    // Never below 16, so a second node has shards to take.
    expect(tier(measured, 'today', 1, 1).historyShards).toBe(16);
  });

  it('grows the databases by what each payout left, and calls for PgBouncer once the pools pass max_connections', () => {
    const ten = tier(measured, '10×', 80, 800);
    expect(ten.paymentsDbBytesPerYear).toBe(80 * 10 * 1024 * 86_400 * 365);
    expect(ten.temporalDbBytesSteady).toBe(80 * 40 * 1024 * 86_400 * 7);
    expect(ten.walBytesPerSecond).toBe(80 * 100 * 1024);
    // today: 2 × 10 + 2 × 10 + 2 nodes × 30 = 100 > 90 usable
    expect(tier(measured, 'today', 8, 800)).toMatchObject({ poolConnections: 100, pgbouncer: true });
    expect(tier({ ...measured, peakConnections: { api: 4, worker: 6, temporal: 20 } }, 'today', 8, 800)).toMatchObject({
      poolConnections: 80,
      pgbouncer: false,
    });
  });

  it('prints one row per resource with the figure behind it', () => {
    const table = sizingTable(measured, 8);
    expect(table.split('\n')[0]).toBe('| | today | 10× | 100× | from |');
    expect(table).toContain('| worker processes | 2 | 8 | 80 | 60.0 CPU ms per payout, likewise |');
    expect(table).toContain('| history shards (fixed for good) | 512 | 512 | 512 |');
    // 8/s × 10 KiB × a year = 2.35 TiB
    expect(table).toContain('| payments database growth per year | 2.3 TiB | 23.5 TiB | 235 TiB | 10.0 KiB per payout, kept |');
  });
});
