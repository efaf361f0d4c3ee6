/**
 * The one way tests reach fourfold's internals (test hooks, each tier's
 * engine): the built dist/testing.js, which src/testing.ts lists. Tests
 * import the public API as `fourfold` and `fourfold/<family>`, and anything
 * else from here, so an internal that moves changes this file only.
 */
export * from '../dist/testing.js';
