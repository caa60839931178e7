import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Link } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { paths } from "@/lib/paths";

/** The small 'Back to Dashboard' link above a page's heading. */
export function BackToDashboardLink() {
  return (
    <Link asChild size="2">
      <RouterLink to={paths.dashboard}>
        <ArrowLeftIcon aria-hidden="true" /> Back to Dashboard
      </RouterLink>
    </Link>
  );
}
