/**
 * One progress line on a terminal, redrawn at most every 100 ms (`\r`); silent when the output is
 * not a terminal (logs and pipes get only the final summary the command prints).
 */
export class Progress {
  private lastDrawn = 0;
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly output: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = output.isTTY === true;
  }

  update(done: number, total: number, detail: string): void {
    if (!this.tty) return;
    const now = Date.now();
    if (now - this.lastDrawn < 100 && done < total) return;
    this.lastDrawn = now;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    this.output.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${detail}\u001b[K`);
  }

  done(): void {
    if (this.tty) this.output.write('\n');
  }
}
