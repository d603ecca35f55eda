/**
 * Graph API versions. The product calls META_API_VERSION (default below); the simulator answers
 * the versions Meta lists as live (v25.0 Feb 2026, v26.0 Jul 2026, v27.0 Nov 2026) and the
 * product's own, and refuses any other the way Graph refuses a retired version (#2635).
 */
export const DEFAULT_META_API_VERSION = 'v21.0';

export const LIVE_API_VERSIONS: readonly string[] = ['v25.0', 'v26.0', 'v27.0'];

export const LATEST_API_VERSION = 'v27.0';
