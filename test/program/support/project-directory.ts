import * as runtimeState from "@pulumi/pulumi/runtime/state";

/** The part of the SDK's internal store (not in its public types) that holds the root directory. */
interface Store {
  settings: { options: { rootDirectory?: string } };
}

/**
 * Sets the project directory the program reads (`pulumi.runtime.getRootDirectory()`), which
 * the engine passes to the language host and the mocks do not set. The SDK reads it once,
 * from PULUMI_NODEJS_ROOT_DIRECTORY, when its store is made, so a test sets it in the store.
 */
export function setProjectDirectory(dir: string): void {
  (runtimeState as unknown as { getStore(): Store }).getStore().settings.options.rootDirectory =
    dir;
}
