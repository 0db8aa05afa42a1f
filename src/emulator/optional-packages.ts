import { OPTIONAL_PACKAGES, requirePackages } from "../peer-packages";

/*
 * The emulator runs on hono, an optional package of incident-sync. `incident-sync/emulator`
 * imports this module first, so a project without hono is told what to install before any
 * module of the emulator asks for it (instead of Node's "Cannot find module 'hono'").
 */
requirePackages("incident-sync/emulator", OPTIONAL_PACKAGES.emulator);
