// @11ty/eleventy ships no types: the one call docs/build.ts makes.
declare module '@11ty/eleventy' {
  export default class Eleventy {
    constructor(input: string, output: string, options: { configPath: string; quietMode?: boolean });
    write(): Promise<unknown>;
  }
}
