// The reference pages' generated parts: the element's tables from custom-elements.json (the same renderer the
// manifest test checks) and the HTTP API from the OpenAPI document. Markdown, so the site styles it like the rest.
import { apiMarkdown, cell, code, publicElement, table } from './element-api.mjs';

/** The element's attributes, events, custom properties and parts, as `##` sections. */
export function elementReference(manifest) {
  return apiMarkdown(publicElement(manifest)).replace(/^#### /gm, '## ');
}

const refName = (ref) => ref.split('/').at(-1);
const schemaAnchor = (name) => `schema-${name.toLowerCase()}`;

/** A schema in one short phrase: a link for a `$ref`, else its type. */
function typeOf(schema) {
  if (!schema) return '';
  if (schema.$ref) return `[${refName(schema.$ref)}](#${schemaAnchor(refName(schema.$ref))})`;
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  if (schema.enum) return schema.enum.map((value) => code(JSON.stringify(value))).join(' \\| ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(' \\| ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  const type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
  return code(type) + (schema.pattern ? ` ${code(schema.pattern)}` : '') + (schema.format ? ` (${schema.format})` : '');
}

/** A refusal's description: its lead sentence, then each `api_code` its examples name, with the numeric code. */
function describe(response, document) {
  const examples = Object.entries(response.content?.['application/json']?.examples ?? {});
  if (examples.length === 0) return cell(response.description);
  const codes = examples.map(([name, example]) => {
    const value = (example.$ref ? document.components.examples[refName(example.$ref)] : example).value;
    return `${code(name)} (${value.code})`;
  });
  return `${cell(response.description.split('\n\n')[0])} ${codes.join(', ')}`;
}

function responses(operation, document) {
  return table(
    ['status', 'body', 'description'],
    Object.entries(operation.responses ?? {}).map(([status, response]) => {
      const resolved = response.$ref ? document.components.responses[refName(response.$ref)] : response;
      return [code(status), typeOf(resolved.content?.['application/json']?.schema), describe(resolved, document)];
    }),
  );
}

function operationMarkdown(method, path, operation, document, level = '###') {
  const lines = [`${level} ${method.toUpperCase()} ${path}`, '', cell(operation.summary)];
  if (operation.description) lines.push('', operation.description.trim());
  const security = (operation.security ?? []).map((set) => Object.keys(set).map((name) => code(name)).join(' + ') || 'none');
  if (security.length > 0) lines.push('', `Authorization: ${security.join(', or ')}.`);
  else if (operation.security) lines.push('', 'Authorization: none (`security: []`).');
  const parameters = operation.parameters ?? [];
  if (parameters.length > 0) {
    lines.push('', table(
      ['parameter', 'in', 'required', 'type', 'description'],
      parameters.map((p) => [code(p.name), p.in, p.required ? 'yes' : 'no', typeOf(p.schema), cell(p.description)]),
    ));
  }
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body) lines.push('', `Body${operation.requestBody.required ? '' : ' (optional)'}: ${typeOf(body)}.`);
  lines.push('', responses(operation, document));
  return lines.join('\n');
}

function schemaMarkdown(name, schema) {
  const lines = [`<h3 id="${schemaAnchor(name)}">${name}</h3>`, ''];
  if (schema.description) lines.push(cell(schema.description), '');
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length > 0) {
    const required = new Set(schema.required ?? []);
    lines.push(table(
      ['field', 'type', 'required', 'description'],
      properties.map(([field, property]) => [code(field), typeOf(property), required.has(field) ? 'yes' : 'no', cell(property.description)]),
    ));
  } else {
    lines.push(`Type: ${typeOf(schema)}.`);
  }
  return lines.join('\n');
}

/** Every operation by tag, every webhook, every schema. */
export function httpReference(document) {
  const out = [`Generated from \`openapi.json\` (OpenAPI ${document.openapi}, "${document.info.title}" ${document.info.version}); [download it](../openapi.json).`, '', document.info.description ?? ''];
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)).map(([method, operation]) => ({ path, method, operation })),
  );
  for (const tag of document.tags ?? []) {
    if (tag.name === 'Webhooks') continue;
    const tagged = operations.filter(({ operation }) => (operation.tags ?? []).includes(tag.name));
    if (tagged.length === 0) continue;
    out.push('', `## ${tag.name} API`, '', cell(tag.description));
    for (const { path, method, operation } of tagged) out.push('', operationMarkdown(method, path, operation, document));
  }
  const webhooks = Object.entries(document.webhooks ?? {});
  if (webhooks.length > 0) {
    out.push('', '## Webhooks', '', cell(document.tags?.find((t) => t.name === 'Webhooks')?.description));
    for (const [name, item] of webhooks) out.push('', operationMarkdown('post', `(webhook) ${name}`, item.post, document));
  }
  out.push('', '## Schemas');
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) out.push('', schemaMarkdown(name, schema));
  return `${out.join('\n')}\n`;
}

const escapeHtml = (text) => String(text ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The theming playground's controls: the theme, and one field per custom property the manifest documents. */
export function playground(manifest) {
  const element = publicElement(manifest);
  const themes = ['auto', 'light', 'dark']
    .map((theme) => `<label><span>${theme}</span><input type="radio" name="theme" value="${theme}"${theme === 'auto' ? ' checked' : ''}></label>`)
    .join('\n');
  const fields = (element.cssProperties ?? [])
    .map((p) => `<label title="${escapeHtml(p.description)}"><span>${escapeHtml(p.name)}</span><input data-property="${escapeHtml(p.name)}" placeholder="${escapeHtml(p.default)}" autocomplete="off" spellcheck="false"></label>`)
    .join('\n');
  return `<div class="playground">
<form class="playground-controls" aria-label="Theme controls">
<fieldset><legend>Theme</legend>
${themes}
</fieldset>
<fieldset><legend>Custom properties (empty: the default)</legend>
${fields}
</fieldset>
</form>
<div>
<div class="playground-preview"><p>Starting the sandbox in this browser…</p></div>
<p>Your CSS:</p>
<pre><output aria-label="The CSS for this theme"></output></pre>
</div>
</div>
`;
}
