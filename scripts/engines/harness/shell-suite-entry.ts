/** The suite entry for shells: React Native's globals first (shell-globals.ts), then the suite. */
import { installShellGlobals } from './shell-globals.js';
import runSuite from './suite-entry.js';

export default function runShellSuite(context: { progress?: (message: string) => void }): ReturnType<typeof runSuite> {
  installShellGlobals();
  return runSuite(context);
}
