/**
 * Messages of: the alert destinations' last delivery and Send a test, the folder dialog's alert
 * recipients and the rule editor's "Mail goes to" line. Namespace `alerts`.
 */
export default {
  alerts: {
    last_delivery: {
      column: 'Last delivery',
      title: 'Last delivery',
      never: 'Nothing delivered yet',
      at: '%{at}',
      what: {
        test: 'test',
        digest: 'digest',
        held_run: 'held run',
        health: 'platform health',
      },
      answered: 'answered %{code}',
      no_answer: 'no answer',
      failures: '%{smart_count} failure in a row |||| %{smart_count} failures in a row',
      problem: 'Problem: %{problem}',
    },
    test: {
      send: 'Send a test',
      send_label: 'Send a test to %{name}',
      sending: 'Sending…',
      ok: 'Delivered: answer %{code}',
      failed_code: 'Failed: answer %{code}',
      failed: 'Failed',
    },
    recipients: {
      label: 'Alert recipients',
      help: 'E-mail addresses that receive the mail alerts of this folder’s rules, separated by commas. Empty: the default recipients (ALERT_EMAILS on the server).',
      mail_goes_to_own: 'Mail goes to: %{emails} (this folder’s recipients)',
      mail_goes_to_default:
        'Mail goes to: the default recipients (ALERT_EMAILS on the server; the folder dialog can set its own)',
    },
  },
};
