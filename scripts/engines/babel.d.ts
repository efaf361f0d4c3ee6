// The part of @babel/core that bundle.ts uses (the package has no types of its own).
declare module '@babel/core' {
  export function transformAsync(code: string, options: Record<string, unknown>): Promise<{ code?: string | null } | null>;
}
