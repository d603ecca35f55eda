/** Messages of: Team, account, invitations, password reset, permission groups. Namespace `people` (resource labels go under `resources.<name>`). */
export default {
  people: {},
};
