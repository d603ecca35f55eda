/**
 * The General view's infinite scroll (docs/screens.md): load the next page while more exist and the user is within 250 px of
 * the bottom; check again 400 ms after each load, so a page that does not fill the window keeps
 * loading.
 */
import { useCallback, useEffect, useRef } from 'react';
import { LOAD_MORE_CHECK_MS, SCROLL_THRESHOLD_PX } from '../../../shared/constants';

export function distanceToBottom(): number {
  const page = document.documentElement;
  return page.scrollHeight - (window.scrollY + window.innerHeight);
}

export function useInfiniteScroll({
  canLoadMore,
  loading,
  loadMore,
  loads,
}: {
  canLoadMore: boolean;
  loading: boolean;
  loadMore: () => void;
  /** Changes after every load (e.g. the number of pages loaded). */
  loads: number;
}) {
  const latest = useRef({ canLoadMore, loading, loadMore });
  latest.current = { canLoadMore, loading, loadMore };

  const check = useCallback(() => {
    const { canLoadMore: more, loading: busy, loadMore: load } = latest.current;
    if (more && !busy && distanceToBottom() <= SCROLL_THRESHOLD_PX) load();
  }, []);

  useEffect(() => {
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [check]);

  // The number of loads once none is in flight: each new value schedules one more check.
  const settledLoads = loading ? null : loads;
  useEffect(() => {
    if (settledLoads === null) return undefined;
    const timer = setTimeout(check, LOAD_MORE_CHECK_MS);
    return () => clearTimeout(timer);
  }, [settledLoads, check]);
}
