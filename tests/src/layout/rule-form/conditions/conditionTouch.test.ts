/** Which condition an error belongs to, and which conditions an edit touched. */
import { describe, expect, it } from 'vitest';
import { newCondition, newGroup, type GroupDraft } from '../../../../../src/layout/rule-form/conditions/conditionDraft';
import { editedNodeKeys, nodeKeyAt } from '../../../../../src/layout/rule-form/conditions/conditionTouch';

const first = newCondition();
const inner = newGroup('any');
const top: GroupDraft = { ...newGroup('all'), nodes: [first, inner] };

describe('condition touch', () => {
  it('finds the condition or group a field path names; the top group has none', () => {
    expect(nodeKeyAt(top, 'conditions.conditions.0.value')).toBe(first.key);
    expect(nodeKeyAt(top, 'conditions.conditions.1.conditions.0.compare_to.factor')).toBe(inner.nodes[0]!.key);
    expect(nodeKeyAt(top, 'conditions.conditions.1.conditions')).toBe(inner.key);
    expect(nodeKeyAt(top, 'conditions.match')).toBeNull();
  });

  it('touches what an edit changed (and the group holding it), not a condition just added', () => {
    const typed: GroupDraft = { ...top, nodes: [{ ...first, value: '40' }, inner] };
    expect(editedNodeKeys(top, typed)).toEqual([first.key]);
    const nested = inner.nodes[0]!;
    const deeper: GroupDraft = {
      ...top,
      nodes: [first, { ...inner, nodes: [{ ...nested, value: '2' } as typeof nested] }],
    };
    expect(editedNodeKeys(top, deeper).sort()).toEqual([inner.key, nested.key].sort());
    const added: GroupDraft = { ...top, nodes: [...top.nodes, newCondition()] };
    expect(editedNodeKeys(top, added)).toEqual([]);
  });
});
