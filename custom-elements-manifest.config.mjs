// `npm run analyze`: custom-elements.json for editors, Storybook-like tools and the README's API tables.
// Only the public tag is documented: internal step elements, private members and helpers stay out.
const publicTag = 'pay-checkout';

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
              const attributes = (declaration.attributes ?? []).filter((attribute) => !attribute.fieldName || publicFields.has(attribute.fieldName));
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

export default {
  // The class lives in src/element/; the tag name comes from src/define.ts's customElements.define.
  globs: ['src/element/**/*.ts', 'src/define.ts'],
  exclude: ['src/element/internal/**'],
  outdir: '.',
  litelement: true,
  packagejson: false,
  plugins: [publicTagOnly()],
};
