/**
 * Where the Conditions card's errors belong, for the editor's "errors once touched": an error's
 * field path ("conditions.conditions.1.conditions.0.value") names a condition or group of the
 * draft, known by its key; an edit touches the nodes whose content it changed. Pure.
 */
import type { GroupDraft, NodeDraft } from './conditionDraft';

/** The key of the deepest node a field path reaches; null for the card's top group. */
export function nodeKeyAt(group: GroupDraft, path: string): string | null {
  const parts = path.split('.');
  if (parts[0] !== 'conditions') return null;
  let current: NodeDraft = group;
  let key: string | null = null;
  for (let i = 1; i + 1 < parts.length; i += 2) {
    if (parts[i] !== 'conditions' || current.type !== 'group') break;
    const node: NodeDraft | undefined = current.nodes[Number(parts[i + 1])];
    if (!node) break;
    key = node.key;
    current = node;
  }
  return key;
}

function contents(group: GroupDraft, into = new Map<string, string>()) {
  for (const node of group.nodes) {
    into.set(node.key, JSON.stringify(node));
    if (node.type === 'group') contents(node, into);
  }
  return into;
}

/** The keys of the nodes an edit changed (a group changes with what it holds); nodes just added are not touched. */
export function editedNodeKeys(before: GroupDraft, after: GroupDraft): string[] {
  const was = contents(before);
  return [...contents(after)].filter(([key, text]) => was.has(key) && was.get(key) !== text).map(([key]) => key);
}
