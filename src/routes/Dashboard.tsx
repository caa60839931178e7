import { PlusIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Link, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { format } from "date-fns";
import { Link as RouterLink } from "react-router-dom";
import { api } from "../../convex/_generated/api";
import { ComingSoonPage } from "@/components/ComingSoonPage";
import { paths } from "@/lib/paths";

/** Placeholder dashboard until the dashboard feature lands. */
export default function Dashboard() {
  const me = useQuery(api.profiles.me);
  return (
    <ComingSoonPage
      title="Welcome to StageTime"
      subtitle={me ? `Member since ${format(new Date(me.memberSince), "MMMM yyyy")}` : undefined}
    >
      <Flex direction="column" gap="4" mt="3">
        <Button asChild size="4">
          <RouterLink to={paths.logSet}>
            <PlusIcon aria-hidden="true" /> Log a Set
          </RouterLink>
        </Button>
        <Card size="3">
          <Text as="p" size="3" weight="bold">
            Browse the scene
          </Text>
          <Text as="p" size="2" color="gray" mb="2">
            Find open mics and shows near you.
          </Text>
          <Link asChild>
            <RouterLink to={paths.scene}>Browse Scene</RouterLink>
          </Link>
        </Card>
      </Flex>
    </ComingSoonPage>
  );
}
