/**
 * The dataProvider's calls for rule templates outside CRUD (docs/api.md, "Templates"): an edit
 * previewed and saved, a folder using a template, a lookalike linked, and on a following rule an
 * override reset or the template left.
 */
import type { RulePatch } from '../../shared/ruleEditor';
import type { RuleDto } from '../../shared/rules';
import type { TemplateDto, TemplateField, TemplatePreviewDto } from '../../shared/templates';
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export function createTemplateMethods(http: HttpClient) {
  const send = async <T>(url: string, method: string, body?: unknown) => (await http<T>(url, { method, body })).json;
  return {
    getTemplate: async (id: number, signal?: AbortSignal) =>
      (await http<TemplateDto>(paths.template(id), { signal })).json,
    previewTemplateEdit: (id: number, patch: RulePatch) =>
      send<TemplatePreviewDto>(paths.templatePreview(id), 'POST', patch),
    saveTemplate: (id: number, patch: RulePatch) => send<TemplateDto>(paths.template(id), 'PATCH', patch),
    addTemplateToFolder: (id: number, folder: number) => send<RuleDto>(paths.templateFolders(id), 'POST', { folder }),
    linkRuleToTemplate: (id: number, rule: number) => send<RuleDto>(paths.templateLink(id), 'POST', { rule }),
    leaveTemplate: (ruleId: number) => send<RuleDto>(paths.ruleLeaveTemplate(ruleId), 'POST'),
    resetOverride: (ruleId: number, field: TemplateField) =>
      send<RuleDto>(paths.ruleResetOverride(ruleId), 'POST', { field }),
  };
}
