import { Button } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { paths } from "@/lib/paths";

/** 'Log your first set': the action of the empty states that only a logged set fills (history, badges). */
export function LogFirstSetButton() {
  return (
    <Button asChild>
      <RouterLink to={paths.logSet}>Log your first set</RouterLink>
    </Button>
  );
}
