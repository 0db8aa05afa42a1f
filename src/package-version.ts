import { packageVersion } from "./package-root";

/** The version in this package's `package.json`, from `src/` and `dist/` alike. */
export const PACKAGE_VERSION: string = packageVersion();
