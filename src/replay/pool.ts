/**
 * Runs `work` on every item, at most `jobs` at a time, in item order. Once `stopped()` is true no
 * new item starts; running ones finish. A failure stops new items too, and is thrown once every
 * running item has settled, so no work is left behind unawaited.
 */
export async function runPool<T>(
  items: readonly T[],
  jobs: number,
  work: (item: T, index: number) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stopped() && failure === undefined) {
      const i = next++;
      try {
        await work(items[i]!, i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(jobs) || 1, items.length));
  await Promise.all(Array.from({ length: width }, worker));
  if (failure) throw failure.err;
}
