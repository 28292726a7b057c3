import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ReferenceConformance, type Difference, type ObservedResponse } from './reference-conformance';
import { deviationFor, REFERENCE_DEVIATIONS, type Deviation } from './reference-deviations';

/** Per test file findings, merged by the global teardown into `.data/reference-conformance.json`. */
export const FINDINGS_DIR = resolve(__dirname, '../../.data/reference-conformance');
export const FINDINGS_SUMMARY = resolve(__dirname, '../../.data/reference-conformance.json');

/**
 * `REFERENCE_CONFORMANCE=report` records differences without failing the tests (for surveying
 * drift); the default fails the test that received a response with an undeclared difference.
 */
const enforce = process.env.REFERENCE_CONFORMANCE !== 'report';

interface Finding extends Difference {
  count: number;
  /** The allow-list's reason when the difference is deliberate. */
  deliberate?: string;
}

export interface FileFindings {
  testFile: string;
  checked: number;
  skipped: Record<string, number>;
  differences: Finding[];
}

/** What the responses of one test file showed; one instance per test file (jest's module registry). */
class ConformanceRecord {
  private conformance?: ReferenceConformance;
  private checked = 0;
  private readonly skipped = new Map<string, number>();
  private readonly findings = new Map<string, Finding>();

  constructor(private readonly basePath: string) {}

  /** Records one response; throws (failing the request's test) on a difference not in the allow-list. */
  observe(response: ObservedResponse): void {
    this.conformance ??= ReferenceConformance.load(this.basePath);
    const verdict = this.conformance.check(response);
    if (verdict.outcome === 'skipped') {
      this.skipped.set(verdict.reason, (this.skipped.get(verdict.reason) ?? 0) + 1);
      return;
    }
    this.checked += 1;
    const undeclared: Difference[] = [];
    for (const difference of verdict.differences) {
      const deviation = deviationFor(difference);
      if (!deviation) undeclared.push(difference);
      const key = findingKey(difference);
      const seen = this.findings.get(key);
      if (seen) seen.count += 1;
      else this.findings.set(key, { ...difference, count: 1, ...(deviation ? { deliberate: deviation.reason } : {}) });
    }
    if (enforce && undeclared.length > 0) {
      throw new Error(
        `${response.method.toUpperCase()} ${response.path} → ${response.status} differs from the public reference ` +
          `(fix it, or list it in test/support/reference-deviations.ts and docs/deviations.md with a reason):\n` +
          undeclared.map((d) => `  ${d.operation} ${d.status} ${d.schemaPath}: ${d.message}`).join('\n'),
      );
    }
  }

  /** Writes this file's findings to `.data/reference-conformance/`. */
  flush(testFile: string): void {
    if (this.checked === 0 && this.skipped.size === 0) return;
    mkdirSync(FINDINGS_DIR, { recursive: true });
    const findings: FileFindings = { testFile, checked: this.checked, skipped: Object.fromEntries(this.skipped), differences: [...this.findings.values()] };
    writeFileSync(join(FINDINGS_DIR, `${basename(testFile)}-${process.pid}.json`), JSON.stringify(findings, null, 2));
  }
}

/** One finding per rule, body location (array items alike) and value. */
function findingKey(d: Difference): string {
  return JSON.stringify([d.operation, d.status, d.schemaPath, d.instancePath.replace(/\/\d+(?=\/|$)/g, '/*'), d.value]);
}

let record: ConformanceRecord | undefined;

export function conformanceRecord(basePath: string): ConformanceRecord {
  record ??= new ConformanceRecord(basePath);
  return record;
}

/** Starts a run with no findings (global setup). */
export function clearFindings(): void {
  rmSync(FINDINGS_DIR, { recursive: true, force: true });
  rmSync(FINDINGS_SUMMARY, { force: true });
}

/** Merges the run's per-file findings into one summary (global teardown); returns a one-line account, if any. */
export function summariseFindings(deviations: readonly Deviation[] = REFERENCE_DEVIATIONS): string | undefined {
  let files: string[];
  try {
    files = readdirSync(FINDINGS_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return undefined;
  }
  if (files.length === 0) return undefined;
  const perFile = files.map((f) => JSON.parse(readFileSync(join(FINDINGS_DIR, f), 'utf8')) as FileFindings);
  const skipped: Record<string, number> = {};
  const differences = new Map<string, Finding & { testFiles: string[] }>();
  for (const file of perFile) {
    for (const [reason, n] of Object.entries(file.skipped)) skipped[reason] = (skipped[reason] ?? 0) + n;
    for (const d of file.differences) {
      const key = findingKey(d);
      const seen = differences.get(key);
      if (seen) {
        seen.count += d.count;
        if (!seen.testFiles.includes(file.testFile)) seen.testFiles.push(file.testFile);
      } else differences.set(key, { ...d, testFiles: [file.testFile] });
    }
  }
  const all = [...differences.values()].sort((a, b) => a.operation.localeCompare(b.operation) || a.status - b.status);
  const undeclared = all.filter((d) => !d.deliberate);
  const used = new Set(all.map((d) => deviationFor(d, deviations)).filter((d) => d !== undefined));
  const summary = {
    testFiles: perFile.map((f) => f.testFile).sort(),
    checked: perFile.reduce((n, f) => n + f.checked, 0),
    skipped: Object.values(skipped).reduce((n, k) => n + k, 0),
    skippedRoutes: skipped,
    undeclaredDifferences: undeclared,
    deliberateDifferences: all.filter((d) => d.deliberate),
    // Meaningful after a run of every API test: an entry nothing needed any more can go.
    deviationsNotSeen: deviations.filter((d) => !used.has(d)),
  };
  writeFileSync(FINDINGS_SUMMARY, JSON.stringify(summary, null, 2));
  return (
    `reference conformance: ${summary.checked} responses checked, ${summary.skipped} skipped (routes the reference lacks), ` +
    `${summary.deliberateDifferences.length} deliberate and ${undeclared.length} undeclared differences (.data/reference-conformance.json)`
  );
}
