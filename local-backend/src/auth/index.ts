/** The public surface of auth/: what other folders import from it. */
export { AuthError, EXPIRES, generateAuthKeys, isAdminKey, TokenVerifier } from "./auth.js";
