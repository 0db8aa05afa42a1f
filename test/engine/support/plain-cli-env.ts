// The plain CLI's environment lives in test/support/plain-cli-env.mjs, which the scale bench's
// plain path shares; the engine tests import it from here, by the name they always used.
export { plainCliEnv } from "../../support/plain-cli-env.mjs";
