/** The last `keep` lines of a process's output, fed in chunks as they arrive (a chunk may end mid-line). */
export class LastLines {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly keep: number) {}

  add(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim()) this.lines.push(line);
    this.lines.splice(0, Math.max(0, this.lines.length - this.keep));
  }

  last(): string[] {
    return [...this.lines, ...(this.partial.trim() ? [this.partial] : [])].slice(-this.keep);
  }
}
