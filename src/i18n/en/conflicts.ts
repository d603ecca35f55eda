/** Messages of: conflicts with rules of other folders on the same ad account (the rule editor, the general view). Namespace `conflicts`. */
export default {
  conflicts: {
    other_folders_title:
      'This rule works against a rule of another folder on the same ad account |||| This rule works against %{smart_count} rules of other folders on the same ad account',
    with_rule_in_folder: 'Conflicts with rule “%{rule}” in folder “%{folder}”',
    other_folders_flag: 'Conflicts with %{smart_count} rules in other folders',
  },
};
