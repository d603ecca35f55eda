/**
 * Whether an ad or campaign is delivering. Only such objects are turned off: an object that is
 * already paused (by a user, a rule, or its parent) is never turned off again.
 */
export interface StatusHolder {
  status: string;
  effective_status: string;
}

const OFF_EFFECTIVE = new Set(['PAUSED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DELETED', 'ARCHIVED']);

export function isOn(object: StatusHolder): boolean {
  return object.status === 'ACTIVE' && !OFF_EFFECTIVE.has(object.effective_status);
}
