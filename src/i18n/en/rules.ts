/** Messages of: General view (folder tree), edit rule, trash. Namespace `rules` (resource labels go under `resources.<name>`). */
export default {
  rules: {},
};
