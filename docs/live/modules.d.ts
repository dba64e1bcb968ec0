// Vite's `?inline` CSS imports (the text of the file), and Eleventy, which ships no types.
declare module '*.css?inline' {
  const css: string;
  export default css;
}
