/** Messages of the shell: side panel, header, login, shared parts, route titles. Namespace `app`. */
export default {
  app: {
    name: 'Ad Rules Console',
    nav: {
      general: 'General',
      campaigns: 'Campaigns',
      team: 'Team',
      account: 'Account',
      campaigns_denied: "You need 'add edit campaigns' permissions to access Campaigns.",
      team_denied: "You need 'update permissions', 'add edit users' or 'is staff' permissions to access Team.",
      open: 'Open menu',
      close: 'Close menu',
    },
    /** The snackbar's severity, read out before its message (the colour is the same for all). */
    notification: {
      success: 'Done',
      info: 'Note',
      warning: 'Warning',
      error: 'Error',
    },
    user_menu: {
      open: 'User menu',
      team: 'Team',
      permissions: 'Permissions',
      account: 'My account',
      logout: 'Log out',
    },
    login: {
      title: 'Login',
      email: 'Email',
      password: 'Password',
      forgot: 'Forgot password?',
      submit: 'Login',
    },
    trash: {
      link: 'Trash',
      denied: 'You do not have permission.',
    },
    secret: {
      needs_reentry: 'needs re-entry',
      needs_reentry_hint:
        "Needs re-entry: the server's key cannot read the stored value (restored without its key?). Enter it again.",
    },
    list: {
      back: 'Back',
      search: 'Search',
      remove_filter: 'Remove filter %{name}',
      no_match: 'Nothing matches the search or the filters.',
      none_yet: 'No %{items} yet.',
      no_match_hint: 'Clear the search or remove a filter chip to see more.',
    },
    page: {
      general: 'General',
      trash: 'Trash',
      account: 'Account',
      team: 'Team',
      campaigns: 'Campaigns',
      edit_rule: 'Edit rule',
      permissions: 'Permissions',
      activity: 'Activity',
      log: 'Log',
      impact: 'Impact',
      login: 'Login',
      password_reset: 'Password reset',
      confirm_password_reset: 'Confirm password reset',
      confirm_email_change: 'Confirm e-mail change',
      join: 'Confirm invitation',
      privacy_policy: 'Privacy Policy',
      messenger: 'Messenger',
      placeholder: 'This screen is being built.',
    },
    problem: {
      not_found: 'Page not found',
      not_found_text: 'There is no screen at this address. It may have moved, or the link may be mistyped.',
      access_denied: 'Access denied',
      access_denied_text:
        'Your permission groups do not open this screen. Ask an administrator of your team if you need it.',
      back: 'Back to General',
    },
    privacy: {
      title: 'Privacy Policy',
      back: 'Back to Ad Rules Console',
      intro:
        'Ad Rules Console is an internal tool for the staff of the agency. This policy explains what it keeps about the people who use it and about the advertising accounts it manages.',
      collected_title: 'What we keep',
      collected:
        'Your name, e-mail address, phone number and permission groups; the changes you make to folders, rules, users and groups (the log); and the actions the rules take on advertising accounts (the activity list). Advertising data is read from the ad platform with the agency’s own access.',
      leads_title: 'The advertisers’ leads',
      leads:
        'To judge ads by what their leads became, the tool keeps a fingerprint of each lead’s e-mail address (its SHA-256 hash, taken the moment the address is read, after trimming and lower-casing it) or the ad platform’s lead id: for the form leads of ad accounts whose folder reads a webinar service, with the ad, campaign and form the lead came from and when it was made; and, per folder, the stage each lead reached (registered or attended a webinar; qualified, booked, attended or won in the CRM) and when. E-mail addresses are never stored, logged or shown in clear: CRM files and posts are read, hashed and discarded, and webinar participants and form leads are kept as hashes only, without their names, phone numbers or other answers. Names, phone numbers and other columns of an uploaded file are never read.',
      use_title: 'How it is used',
      use: 'Only to run the rules, show their history to the team, and secure sign-in. Nothing is sold or shared with third parties beyond the ad platform the rules act on.',
      retention_title: 'How long',
      retention:
        'Records are kept while the agency uses the tool. Ask an administrator to remove your account and its personal data. Lead outcomes (webinar registrations and attendances, CRM stages), the leads’ fingerprints and the campaigns’ webinar dates are kept 400 days after they happened (a lead’s fingerprint, 400 days after the lead was made), then deleted automatically; CRM outcomes older than that are refused. Deleting a folder for good deletes its lead outcomes, its webinar dates and its CRM key at once; the form leads’ fingerprints belong to the ad account and go after their 400 days.',
      contact_title: 'Contact',
      contact: 'Questions about this policy go to the administrator of your team.',
    },
  },
};
