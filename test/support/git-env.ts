/** Variables that make git commit as `name`, so a test's commits need no identity of the machine's. */
export function gitIdentity(name: string): NodeJS.ProcessEnv {
  const email = `${name.toLowerCase().replace(/\s+/g, "-")}@example.test`;
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
}

/**
 * This process's environment for git, committing as `name` and reading no configuration of
 * the system or the user (hooks, signing, default branch), so a test's repository is the same
 * on every machine.
 */
export function isolatedGitEnv(name: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...gitIdentity(name),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
}
