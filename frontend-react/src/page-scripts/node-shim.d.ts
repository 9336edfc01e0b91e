// The three Node functions the page-script tests use (the package has no @types/node: the
// widgets run in browsers).
declare module 'node:fs' {
  export function readFileSync(path: string, encoding: 'utf8'): string;
}
declare module 'node:path' {
  export function dirname(path: string): string;
  export function resolve(...paths: string[]): string;
}
declare module 'node:url' {
  export function fileURLToPath(url: string | URL): string;
}
