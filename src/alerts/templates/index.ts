/**
 * Alertmanager's notification templates: Go text/template with Alertmanager's functions and
 * defaults (`compileTemplates`, `loadTemplateFiles`), and the data they run over (`templateData`).
 */
export type { Rendered, Templates } from './templates.js';
export type { TemplateAlert, TemplateData } from './data.js';
export { quoteMeta, templateData, type TemplateDataInput } from './build-data.js';
export { compileTemplates, type CompiledTemplates, type TemplateFile } from './compile-templates.js';
export { glob, loadTemplateFiles } from './template-files.js';
