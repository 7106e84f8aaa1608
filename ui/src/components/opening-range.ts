// The range a chart page opens on. A range in the address is the user's and stands; without one, the page looks at
// its default range's figures once and opens on the last hour when all of it is younger than two hours (a fresh
// installation, a demo just started), where a day's chart would show one bar at its right edge.
import { useState } from 'preact/hooks';
import { here, navigate } from '../shell/router.js';
import { withParams } from '../shell/url-state.js';
import { rangeForData } from './chart-scales.js';

export interface Buckets { times: readonly number[]; counts: readonly number[] }

export interface OpeningRange<R extends string> {
  /** The range to load and show. */
  range: R;
  /** False until the default range's figures were looked at: show the loading state, not a day that may flip to an hour. */
  settled: boolean;
  /** Chooses a range: the address keeps it. */
  choose(range: R): void;
  /** Hands over the figures of `range` once loaded; the first ones decide the opening range. */
  look(buckets: Buckets | undefined): void;
}

/**
 * `choice` is useChoice's for `param` (its value is the default when the address has none). A range the user chooses
 * is always written in the address, the default too, so an address without one always means "the opening range":
 * going back to it shows what the page first opened on.
 */
export function useOpeningRange<R extends string>(param: string, [chosen]: [R, (r: R) => void], short: R): OpeningRange<R> {
  const { path, search } = here.value;
  const named = new URLSearchParams(search).has(param);
  const [opened, setOpened] = useState<R | null>(null);
  return {
    range: named || opened === null ? chosen : opened,
    settled: named || opened !== null,
    choose: (r) => navigate(path + withParams(search, { [param]: r })),
    look: (buckets) => { if (!named && opened === null && buckets) setOpened(rangeForData(buckets.times, buckets.counts, Date.now(), chosen, short)); },
  };
}
