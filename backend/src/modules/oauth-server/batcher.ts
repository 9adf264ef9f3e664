/**
 * Groups the calls of concurrent requests into one database statement (decision 0017). While
 * fewer than `maxInFlight` batches are running, a call starts a batch at once (so one request
 * alone waits for nothing); otherwise it waits with the others for the next one. A batch that
 * fails is tried again one call at a time, so only the call that was at fault sees the error.
 */
export class Batcher<I, O> {
  private queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxInFlight = 2,
    private readonly maxBatch = 256,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.settle(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async settle(batch: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[]): Promise<void> {
    try {
      const results = await this.run(batch.map((call) => call.item));
      batch.forEach((call, i) => call.resolve(results[i] as O));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const call of batch) {
        await this.run([call.item]).then(
          (results) => call.resolve(results[0] as O),
          (single: unknown) => call.reject(single),
        );
      }
    }
  }
}
