// espree and eslint-scope (ESLint's own parser and scope analyser) ship no declarations; what entry-by-global.ts uses.
declare module 'espree' {
  export function parse(code: string, options: { ecmaVersion: 'latest'; sourceType: 'module'; range: true }): import('estree').Program;
}
declare module 'eslint-scope' {
  interface Reference {
    init?: boolean;
    isWrite(): boolean;
  }
  interface Variable {
    name: string;
    references: Reference[];
  }
  interface Scope {
    variables: Variable[];
  }
  export function analyze(
    program: import('estree').Program,
    options: { ecmaVersion: number; sourceType: 'module'; childVisitorKeys: Record<string, readonly string[]>; fallback: 'iteration' },
  ): { acquire(node: import('estree').Program, inner: boolean): Scope | null };
}
