/**
 * Graph's own error bodies, copied from Meta's docs and public bug reports (each cited), for tests
 * that hold the client and the simulator to what Graph really sends.
 */
/** singer-io/tap-facebook#65 and facebook-python-business-sdk#470: an insights page answered HTTP 500, code 1. */
export const TOO_MUCH_500 = {
  status: 500,
  body: { error: { code: 1, message: "Please reduce the amount of data you're asking for, then retry your request" } },
};
/** Meta, "Insights API: Limits and Best Practices": data-per-call limits answer error code 100, subcode 1487534. */
export const TOO_MUCH_1487534 = {
  status: 400,
  body: {
    error: {
      message: "Please reduce the amount of data you're asking for, then retry your request",
      type: 'OAuthException',
      code: 100,
      error_subcode: 1487534,
      fbtrace_id: 'AbCdEfGh123',
    },
  },
};
/** facebook/facebook-python-business-sdk#416: code 17 with no usage header. */
export const USER_LIMIT_17 = {
  status: 400,
  body: {
    error: {
      message: '(#17) User request limit reached',
      type: 'OAuthException',
      is_transient: true,
      code: 17,
      fbtrace_id: 'HsDsvTm9trr',
    },
  },
};
/** airbytehq/airbyte#8773: 80004 as Graph sends it. */
export const ACCOUNT_LIMIT_80004 = {
  status: 400,
  body: {
    error: {
      message:
        '(#80004) There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.',
      type: 'OAuthException',
      code: 80004,
      error_subcode: 2446079,
      fbtrace_id: 'AFm-w0VSqFxoRyuKXJgg48H',
    },
  },
};
