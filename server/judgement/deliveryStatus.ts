/**
 * Whether an ad or campaign is delivering, read as Meta's enums say (`Ad_effective_status`,
 * `Campaign_effective_status` in the Graph specs): only an object whose own status is ACTIVE and
 * whose effective status is ACTIVE is a candidate. Everything else — PAUSED, CAMPAIGN_PAUSED,
 * ADSET_PAUSED, DISAPPROVED, WITH_ISSUES, IN_PROCESS, PENDING_REVIEW, PENDING_BILLING_INFO,
 * PREAPPROVED, ARCHIVED, DELETED — is left alone: it is not delivering (or not yet), so there is
 * nothing to stop, and acting on an object in review or with issues would hide the platform's own
 * state from the person who has to fix it. (Meta's own rules also look at PENDING_REVIEW ads; we do
 * not: an ad in review spends nothing until it is approved, and the next slot sees it then.)
 */
export interface StatusHolder {
  status: string;
  effective_status: string;
}

export function isOn(object: StatusHolder): boolean {
  return object.status === 'ACTIVE' && object.effective_status === 'ACTIVE';
}
