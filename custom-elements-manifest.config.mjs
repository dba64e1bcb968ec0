// `npm run analyze`: custom-elements.json for editors, Storybook-like tools and the docs site's element reference, and from it
// the framework typings and editor data in dist/frameworks/ (React 19 JSX, Vue 3, Svelte, VS Code, JetBrains).
// Only the public tag is documented: internal step elements, private members and helpers stay out.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { customElementJetBrainsPlugin } from 'custom-element-jet-brains-integration';
import { customElementJsxPlugin } from 'custom-element-jsx-integration';
import { customElementSveltePlugin } from 'custom-element-svelte-integration';
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';
import { customElementVuejsPlugin } from 'custom-element-vuejs-integration';

const publicTag = 'pay-checkout';
/** Where the generated files go (under `cem analyze --outdir`, so a test's scratch run writes nothing here). */
const outdirFlag = process.argv.indexOf('--outdir');
const frameworks = path.join(outdirFlag > 0 ? (process.argv[outdirFlag + 1] ?? '.') : '.', 'dist', 'frameworks');
const quiet = { hideLogs: true, globalTypePath: '../types/index.js' };

/** Each documented source module → the shipped file that exports the same thing (the package carries no src/). */
const shippedPaths = { 'src/element/pay-checkout.ts': 'dist/index.js', 'src/define.ts': 'dist/define.js' };
const shipped = (modulePath) => {
  const key = modulePath.replace(/^\//, '').replace(/\.js$/, '.ts');
  const target = shippedPaths[key];
  if (!target) throw new Error(`custom-elements.json: ${modulePath} has no shipped file; add it to shippedPaths`);
  return target;
};

/** Points every module and declaration reference at the shipped file instead of the TypeScript source. */
function shippedModulePaths() {
  return {
    name: 'pay-checkout-shipped-paths',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        module.path = shipped(module.path);
        for (const entry of module.exports ?? []) if (entry.declaration?.module) entry.declaration.module = shipped(entry.declaration.module);
      }
    },
  };
}

/**
 * What the framework generators read: they type an event handler as `CustomEvent<type>`, so the type is the detail
 * (`PayReadyEvent` → `PayReadyDetail`, both exported by `pay-checkout`); a key is never an input and a getter never a
 * prop. custom-elements.json itself keeps the schema's meaning (the event's type) and documents the refused key.
 */
function forFrameworks(manifest) {
  const copy = structuredClone(manifest);
  for (const declaration of copy.modules.flatMap((module) => module.declarations ?? [])) {
    declaration.attributes = (declaration.attributes ?? []).filter((attribute) => attribute.fieldName !== 'merchantKey');
    declaration.members = (declaration.members ?? []).filter((member) => member.name !== 'merchantKey' && !member.readonly);
    for (const event of declaration.events ?? []) {
      if (!/^Pay\w+Event$/.test(event.type?.text ?? '')) throw new Error(`event ${event.name}: type ${event.type?.text} is not a Pay…Event`);
      event.type = { text: event.type.text.replace(/Event$/, 'Detail') };
    }
  }
  return copy;
}
const onFrameworkCopy = (plugin) => ({
  name: `${plugin.name}-on-framework-copy`,
  packageLinkPhase: ({ customElementsManifest }) => plugin.packageLinkPhase({ customElementsManifest: forFrameworks(customElementsManifest) }),
});

/**
 * Svelte 5 listens with event attributes (`onpay-paid={…}`); the generator types only Svelte 4's `on:pay-paid`. Each
 * `on:` handler gets its Svelte 5 twin, with the same detail type, so svelte-check accepts both.
 */
function svelte5EventAttributes() {
  return {
    name: 'pay-checkout-svelte5-events',
    packageLinkPhase() {
      const file = path.join(frameworks, 'svelte.d.ts');
      const typings = readFileSync(file, 'utf8');
      const twins = typings.replace(/^([ \t]*)"on:([\w-]+)"\?: ([^\n]+)$/gm, (line, indent, name, type) => `${line}\n${indent}/** Svelte 5's event attribute for \`on:${name}\`. */\n${indent}"on${name}"?: ${type}`);
      if (twins === typings) throw new Error('svelte.d.ts: no on: events found to give Svelte 5 twins');
      writeFileSync(file, twins);
    },
  };
}

const isPublicMember = (member) =>
  !member.static && member.privacy !== 'private' && member.privacy !== 'protected' && !/^[#_]/.test(member.name);

/** Keeps `<pay-checkout>` (its declaration and its `customElements.define`) and drops every other module. */
function publicTagOnly() {
  return {
    name: 'pay-checkout-public-tag-only',
    packageLinkPhase({ customElementsManifest }) {
      const isPublicElement = (declaration) => declaration.customElement && declaration.tagName === publicTag;
      const publicClassNames = new Set();
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) if (isPublicElement(declaration)) publicClassNames.add(declaration.name);
      }
      customElementsManifest.modules = customElementsManifest.modules
        .map((module) => {
          const declarations = (module.declarations ?? [])
            .filter(isPublicElement)
            .map((declaration) => {
              const members = (declaration.members ?? []).filter(isPublicMember);
              const publicFields = new Set(members.map((member) => member.name));
              // `static properties` lists internal reactive state too (`flow`, `messages`…, `state: true`, private
              // fields): the analyzer reads each entry as an attribute, so an attribute stays only for a public field.
              // `defer-hydration` (observedAttributes) is a protocol between renderers and the element, not a page's setting.
              const attributes = (declaration.attributes ?? []).filter(
                (attribute) => (!attribute.fieldName || publicFields.has(attribute.fieldName)) && attribute.name !== 'defer-hydration',
              );
              return { ...declaration, members, attributes };
            });
          const exports = (module.exports ?? []).filter(
            (entry) =>
              publicClassNames.has(entry.declaration?.name) && (entry.kind !== 'custom-element-definition' || entry.name === publicTag),
          );
          return { ...module, declarations, exports };
        })
        .filter((module) => module.declarations.length > 0 || module.exports.length > 0);
    },
  };
}

/**
 * The page's settings are declared in `PayCheckoutSettings` (pay-checkout-settings.ts), which the element extends so its
 * file holds behaviour; to a page they are the element's own. Shown so: no `inheritedFrom`, the settings first, and
 * the superclass the settings' (LitElement).
 */
function settingsAsOwn() {
  return {
    name: 'pay-checkout-settings-as-own',
    packageLinkPhase({ customElementsManifest }) {
      const declarations = customElementsManifest.modules.flatMap((module) => module.declarations ?? []);
      const settings = declarations.find((declaration) => declaration.name === 'PayCheckoutSettings');
      if (!settings) throw new Error('custom-elements.json: PayCheckoutSettings not found');
      for (const declaration of declarations.filter((d) => d.superclass?.name === 'PayCheckoutSettings')) {
        const own = (entries = []) => {
          const inherited = entries.filter((entry) => entry.inheritedFrom?.name === 'PayCheckoutSettings');
          for (const entry of inherited) delete entry.inheritedFrom;
          return [...inherited, ...entries.filter((entry) => !inherited.includes(entry))];
        };
        declaration.members = own(declaration.members);
        declaration.attributes = own(declaration.attributes);
        declaration.superclass = settings.superclass;
      }
    },
  };
}

export default {
  // The class lives in src/element/; the tag name comes from src/define.ts's customElements.define.
  globs: ['src/element/**/*.ts', 'src/define.ts'],
  exclude: ['src/element/internal/**'],
  outdir: '.',
  litelement: true,
  packagejson: false,
  plugins: [
    settingsAsOwn(),
    publicTagOnly(),
    shippedModulePaths(),
    ...[
      customElementJsxPlugin({ ...quiet, outdir: frameworks, fileName: 'jsx.d.ts' }),
      customElementVuejsPlugin({ ...quiet, outdir: frameworks, fileName: 'vue.d.ts' }),
      customElementSveltePlugin({ ...quiet, outdir: frameworks, fileName: 'svelte.d.ts' }),
      customElementVsCodePlugin({ ...quiet, outdir: frameworks, htmlFileName: 'vscode.html-custom-data.json', cssFileName: 'vscode.css-custom-data.json' }),
      customElementJetBrainsPlugin({ ...quiet, outdir: frameworks, webTypesFileName: 'web-types.json', packageJson: false }),
    ].map(onFrameworkCopy),
    svelte5EventAttributes(),
  ],
};
