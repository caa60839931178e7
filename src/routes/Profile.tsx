import { Button, Flex, Link, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { format } from "date-fns";
import { Link as RouterLink } from "react-router-dom";
import { api } from "../../convex/_generated/api";
import { ComingSoonPage } from "@/components/ComingSoonPage";
import { LoadingState } from "@/components/LoadingState";
import { useSignOut } from "@/components/auth/useSignOut";
import { paths } from "@/lib/paths";

/** Placeholder profile until the profile feature lands: who you are and Sign Out. */
export default function Profile() {
  const me = useQuery(api.profiles.me);
  const signOut = useSignOut();
  if (me === undefined) return <LoadingState label="Loading your profile…" />;
  if (me === null) return <ComingSoonPage title="Profile not found" />;
  return (
    <ComingSoonPage title="Profile" subtitle={`Member since ${format(new Date(me.memberSince), "MMMM yyyy")}`}>
      <Text as="p">{me.displayName}</Text>
      {me.email ? (
        <Text as="p" color="gray" size="2">
          {me.email}
        </Text>
      ) : null}
      <Flex gap="3" mt="3" wrap="wrap" align="center">
        <Button color="red" variant="soft" onClick={() => void signOut()}>
          Sign Out
        </Button>
        <Link asChild>
          <RouterLink to={paths.dashboard}>Back to Dashboard</RouterLink>
        </Link>
      </Flex>
    </ComingSoonPage>
  );
}
