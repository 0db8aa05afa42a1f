// Preloaded into the engine's Node processes by bench/profile-no-change.mjs: the engine stops
// the provider plugin with a signal, and a process a signal ends writes no --cpu-prof profile,
// so on SIGINT or SIGTERM it exits normally instead, and its profile is written.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
