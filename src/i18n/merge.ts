type Messages = Record<string, unknown>;

const isObject = (value: unknown): value is Messages =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep-merges message trees; later trees win on the same key. */
export function mergeMessages(...trees: Messages[]): Messages {
  const result: Messages = {};
  for (const tree of trees) {
    for (const [key, value] of Object.entries(tree)) {
      const current = result[key];
      result[key] = isObject(current) && isObject(value) ? mergeMessages(current, value) : value;
    }
  }
  return result;
}
