/** Messages of: Activity (rule log). Namespace `activity` (resource labels go under `resources.<name>`). */
export default {
  activity: {},
};
