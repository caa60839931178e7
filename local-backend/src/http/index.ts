/** The public surface of http/: what other folders import from it. */
export { startServers } from "./server.js";
