import { HeartFilledIcon } from "@radix-ui/react-icons";
import { Card, Flex, Heading, Link, Skeleton, Text } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { paths } from "../../lib/paths";
import { LoadFailed } from "./LoadFailed";

function FavoritesList() {
  const favorites = useQuery(api.favorites.list, {});
  if (favorites === undefined) {
    return (
      <Flex direction="column" gap="2" role="status" aria-label="Loading favorites" aria-busy="true">
        <Skeleton height="20px" />
        <Skeleton height="20px" />
      </Flex>
    );
  }
  if (favorites.length === 0) {
    return (
      <Text size="2" color="gray">
        No favorite venues yet
      </Text>
    );
  }
  return (
    <Flex direction="column" gap="2" asChild>
      <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Favorite venues">
        {favorites.map((item) => (
          <li key={item._id}>
            <Flex direction="column">
              <Link asChild weight="medium" style={{ overflowWrap: "anywhere" }}>
                <RouterLink to={paths.event(item._id)}>{item.title}</RouterLink>
              </Link>
              <Text size="1" color="gray">
                {item.venueName}, {item.city}
              </Text>
            </Flex>
          </li>
        ))}
      </ul>
    </Flex>
  );
}

/** The comedian's favourite mics, each linking to its event page. */
export function FavoritesCard() {
  return (
    <Card size="2">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          <Flex as="span" gap="2" align="center">
            <HeartFilledIcon aria-hidden="true" color="var(--red-9)" /> Favorites
          </Flex>
        </Heading>
        <ErrorBoundary
          fallback={
            <LoadFailed id="favorites-load" toastTitle="Failed to load favorites" message="Failed to load favorites" />
          }
        >
          <FavoritesList />
        </ErrorBoundary>
      </Flex>
    </Card>
  );
}
