/**
 * PGlite sends a query's text parameters with a byte length it counts itself, and it undercounts
 * text holding lone UTF-16 surrogates (two unpaired low surrogates in a row are counted as one
 * pair), so PostgreSQL receives a cut-off UTF-8 sequence and the query fails: a sign-in with such
 * an e-mail answered 500 (found by tests/server/routes.fuzz.test.ts). node-postgres encodes a lone
 * surrogate as U+FFFD; this makes PGlite do the same, so both engines store and compare the same text.
 * Plain JavaScript: it runs in the PGlite worker (pgliteWorker.mjs).
 */

/** Each lone surrogate becomes U+FFFD, as `String.prototype.toWellFormed` does (a pair is one code point under `u`). */
const wellFormed = (value) => (typeof value === 'string' ? value.replace(/[\uD800-\uDFFF]/gu, '\uFFFD') : value);

/**
 * Every parameter PGlite serializes, whatever its type, leaves as well-formed text.
 * @param {import('@electric-sql/pglite').PGlite} client
 */
export function sendWellFormedText(client) {
  const serializers = client.serializers;
  client.serializers = new Proxy(serializers, {
    get(target, oid) {
      const serialize = target[oid];
      return (value) => wellFormed(serialize ? serialize(value) : String(value));
    },
  });
}
