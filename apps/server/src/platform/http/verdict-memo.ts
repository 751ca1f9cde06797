/**
 * Remembers a pure verdict on a header value (a URL parse per request was measurable on
 * the order path). A client can send any number of distinct values, so the memo holds at
 * most `max` and starts over when full; a server is reached under a handful of names.
 */
export function verdictMemo(max: number, decide: (key: string) => boolean): (key: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (key) => {
    const known = verdicts.get(key);
    if (known !== undefined) return known;
    const verdict = decide(key);
    if (verdicts.size >= max) verdicts.clear();
    verdicts.set(key, verdict);
    return verdict;
  };
}
