/** Messages of: Campaigns list. Namespace `campaigns` (resource labels go under `resources.<name>`). */
export default {
  campaigns: {},
};
