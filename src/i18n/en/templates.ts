/** The rule editor's template panel (a rule that follows a template). The templates screens' labels live with their resource. */
export default {
  rules: {
    template: {
      title: 'Template',
      follows: 'This rule follows the template',
      inherits_all: 'It inherits every field.',
      overrides_some: 'This folder overrides %{smart_count} field. |||| This folder overrides %{smart_count} fields.',
      overridden: 'Own: %{field}',
      reset_aria: 'Reset %{field} to the template',
      reset_done: '%{field} follows the template again',
      how: 'Inherited fields change when the template does. Change one below and save to override it for this folder; reset an override to follow the template again (it saves at once).',
      read_only: 'You may read this rule but not change its template link.',
      show_fields: 'Show every field',
      hide_fields: 'Hide the fields',
      state_overridden: 'overridden',
      state_inherited: 'inherited',
      leave: 'Leave template',
      leave_title: 'Stop following "%{name}"?',
      leave_text: 'The rule keeps the values it has now, and later changes to the template no longer reach it.',
      left: 'The rule no longer follows its template and keeps its values',
    },
  },
};
