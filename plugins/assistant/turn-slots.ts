/** Answers streaming at once: taken synchronously before any await, so concurrent requests cannot all pass one check. */
export class TurnSlots {
  private used = 0;

  constructor(readonly max: number) {}

  take(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }

  release(): void {
    this.used = Math.max(0, this.used - 1);
  }
}
