/**
 * The authorization matrix's table (convex/authz.test.ts): for every public
 * function valid arguments against the world of convex/testing/test.authzWorld.ts and
 * what each caller may do with it, one module per area of functions.
 */
import { accountCells } from "./test.authzMatrix.account";
import { adminCells } from "./test.authzMatrix.admin";
import { listCells } from "./test.authzMatrix.lists";
import { materialCells } from "./test.authzMatrix.material";
import { notificationCells } from "./test.authzMatrix.notifications";
import { sceneCells } from "./test.authzMatrix.scene";
import { seasonCells } from "./test.authzMatrix.season";
import type { Entry } from "./test.authzWorld";

/** Who may do what with each public function (anonymous, another comedian, an admin, the owner). */
export const matrix: Record<string, Entry> = {
  ...accountCells,
  ...sceneCells,
  ...adminCells,
  ...listCells,
  ...materialCells,
  ...notificationCells,
  ...seasonCells,
};
