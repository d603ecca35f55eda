/**
 * The Campaigns filter panel's state and flow. Values live in the list's filter (so in the address,
 * bookmarkable); typing is kept in a draft and sent at once, the list applying it after its 500 ms
 * debounce. A filter applied from elsewhere (a bookmark, the back button) replaces the draft.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useListContext } from 'react-admin';
import { EMPTY_FILTER_DRAFT, filterKey, toDraft, toFilter, type FilterDraft } from './campaignFilterDraft';

export function useCampaignFilterDraft() {
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const [draft, setDraft] = useState<FilterDraft>(() => toDraft(filterValues));
  const hasFilters = Object.keys(toFilter(toDraft(filterValues))).length > 0;

  // Filters this panel sent that the list has not applied yet (it applies them after its debounce).
  const pending = useRef<string[]>([]);
  const appliedKey = filterKey(filterValues);
  const showAppliedFilters = useEffectEvent(() => setDraft(toDraft(filterValues)));
  useEffect(() => {
    const ours = pending.current.indexOf(appliedKey);
    if (ours >= 0) {
      pending.current = pending.current.slice(ours + 1);
      return;
    }
    // A change that did not come from this panel (a bookmark, the back button): show it.
    pending.current = [];
    showAppliedFilters();
  }, [appliedKey]);

  const send = (filter: Record<string, unknown>, debounce = true) => {
    const key = filterKey(filter);
    if (key === (pending.current.at(-1) ?? appliedKey)) return;
    pending.current.push(key);
    setFilters(filter, debounce ? displayedFilters : {}, debounce);
  };

  return {
    draft,
    /** The list is filtered (by the address, or by what this panel sent). */
    hasFilters,
    /** Something to clear: a filter applied, or one typed and not sent yet. */
    canClear: hasFilters || Object.keys(toFilter(draft)).length > 0,
    change: (patch: Partial<FilterDraft>) => {
      const next = { ...draft, ...patch };
      setDraft(next);
      send(toFilter(next));
    },
    clear: () => {
      setDraft(EMPTY_FILTER_DRAFT);
      send({}, false);
    },
  };
}
